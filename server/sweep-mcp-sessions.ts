import type { Logger } from 'pino';
import { ENDED_SWEEP_MS, type McpEndpoint } from '../api/mcp/mcp-endpoint.js';

/**
 * Runs the MCP endpoint's sweep every ENDED_SWEEP_MS, so the MCP sessions (and upstream
 * connections) of agent sessions that ended are closed within that; answers what stops it.
 */
export function sweepMcpSessions(endpoint: Pick<McpEndpoint, 'sweep'>, logger: Logger, everyMs = ENDED_SWEEP_MS): () => void {
  const timer = setInterval(
    () =>
      void endpoint
        .sweep()
        .catch((error: Error) => logger.warn({ event: 'mcp.sweep_failed', error: error.message }, 'MCP session sweep failed')),
    everyMs,
  );
  // The sweep keeps nothing alive: stop() clears it, and a process that is otherwise done may exit.
  timer.unref();
  return () => clearInterval(timer);
}
