import { createLogger } from '../../server/create-logger.js';
import { sweepMcpSessions } from '../../server/sweep-mcp-sessions.js';
import { logCapture } from '../support/log-capture.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the server's sweep of the MCP sessions of ended agent sessions (server/sweep-mcp-sessions.ts)", () => {
  it('runs the endpoint sweep on its interval until stopped, and logs a failed sweep instead of throwing', async () => {
    const logs = logCapture();
    let sweeps = 0;
    const endpoint = {
      async sweep() {
        sweeps += 1;
        if (sweeps === 1) throw new Error('database unreachable');
      },
    };
    const stop = sweepMcpSessions(endpoint, createLogger('info', logs.stream), 20);
    // Generous: a loaded machine may run a 20 ms timer late, never early.
    for (let waited = 0; sweeps < 3 && waited < 5_000; waited += 20) await tick(20);
    stop();
    expect(sweeps).toBeGreaterThanOrEqual(3);
    expect(logs.events('mcp.sweep_failed')).toEqual([expect.objectContaining({ error: 'database unreachable' })]);
    const stoppedAt = sweeps;
    await tick(100);
    expect(sweeps).toBe(stoppedAt);
  });
});
