import { jest } from '@jest/globals';
import { startShipgate, type ListeningShipgate } from '../agents/support/agent-run.js';
import { withHealthzMeanwhile } from '../support/healthz-meanwhile.js';

// docs/operations.md, "Regular expressions": checking a glob cost what its braces expand to. A 1 MB (976 KB)
// draft of 100 rules whose globs each expanded to 16 alternatives of a hundred stars held the event
// loop for over a minute, sent by anyone who may read the repository (the simulation); the same gate
// PUT, as long. Refused now within a second, /healthz answering meanwhile.

jest.setTimeout(120_000);

let sg: ListeningShipgate;
beforeAll(async () => {
  sg = await startShipgate();
});
afterAll(async () => sg?.close());

const askHealthz = async () => {
  const res = await fetch(`${sg.url}/healthz`);
  await res.arrayBuffer();
  return res.status;
};

const glob = (i: number, j: number) => `{a,b,c,d}{a,b,c,d}/**/${'*x'.repeat(50)}${i}-${j}`;
const hostileGate = {
  rules: Array.from({ length: 100 }, (_, i) => ({ name: `r${i}`, if: { paths: Array.from({ length: 75 }, (_, j) => glob(i, j)) } })),
};

async function send(method: 'PUT' | 'POST', path: string, body: unknown) {
  const { result, ms, healthzMs } = await withHealthzMeanwhile(askHealthz, async () => {
    const res = await fetch(`${sg.url}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: sg.t.admin.auth.Authorization },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { detail: { loc: unknown[]; msg: string }[] } };
  });
  if (process.env.SHOW_TIMINGS) console.log(`${method} ${path} ${ms.toFixed(0)} ms, /healthz max ${Math.max(...healthzMs).toFixed(0)} ms`);
  return { ...result, ms, healthz: Math.max(...healthzMs) };
}

describe('a gate whose globs expand to megabytes', () => {
  it('is refused where its globs pass the budget, within a second, by the simulation and by PUT alike', async () => {
    expect(JSON.stringify(hostileGate).length).toBeGreaterThan(900_000);
    const simulated = await send('POST', '/releases/gates/acme/globs/simulate', { gate: hostileGate });
    const put = await send('PUT', '/releases/gates/acme/globs', hostileGate);
    for (const [answer, loc] of [
      [simulated, ['body', 'rules', 0, 'if', 'paths', 74]],
      [put, ['body', 'rules', 0, 'if', 'paths', 74]],
    ] as const) {
      expect(answer.status).toBe(422);
      expect(answer.body.detail[0]).toMatchObject({ loc, msg: expect.stringContaining('braces expanded') });
      expect(answer.ms).toBeLessThan(1_000);
      expect(answer.healthz).toBeLessThan(200);
    }
  });
});
