import { generateKeyPairSync } from 'node:crypto';
import { startReplica, type Replica } from '../support/second-replica.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  claudePost,
  claudePre,
  decisionOf,
  executionRecord,
  hookPolicy,
  hookSession,
  postHook,
  verifiedExport,
} from './support/hook-fixture.js';

let t: TestApp;
let replica: Replica;
let policy: string;
beforeAll(async () => {
  // Both replicas sign with one key, as replicas given SHIPGATE_SIGNING_KEY do.
  const env = { SHIPGATE_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string };
  t = await createTestApp(env);
  replica = await startReplica(t.database.url, env);
  policy = await hookPolicy(t, { max_tool_calls: 3 });
}, 60_000);
afterAll(async () => {
  await replica?.close();
  await t?.close();
});

type Entry = { seq: number; verdict: string; reason: string | null };
const entriesOf = async (id: string) => ((await executionRecord(t, id)).tool_calls as Entry[]).map((c) => [c.seq, c.verdict, c.reason]);

describe('a session\'s max_tool_calls counts the calls its pre hooks allowed (docs/agent-hooks.md, "How a call is decided")', () => {
  it('counts a call from its pre: past the limit a pre is refused while earlier posts have not come', async () => {
    const session = await hookSession(t, policy);
    const pres = Array.from({ length: 4 }, (_, i) => claudePre('Bash', { command: `echo ${i}` }));
    const decisions = [];
    for (const pre of pres) decisions.push(decisionOf(await postHook(t, 'claude-code', session.token, pre).expect(200)));
    expect(decisions.map((d) => d.decision)).toEqual(['allow', 'allow', 'allow', 'deny']);
    expect(decisions[3].reason).toMatch(/tool_call_limit/);
    // The three allowed calls are still recorded when their posts come, and nothing past them.
    for (const pre of pres) await postHook(t, 'claude-code', session.token, claudePost(pre, { stdout: 'x' })).expect(200);
    expect(await entriesOf(session.id)).toEqual([
      [1, 'denied', 'tool_call_limit'],
      [2, 'allowed', null],
      [3, 'allowed', null],
      [4, 'allowed', null],
    ]);
  });

  it('opens a call only while one is left, and a call discarded gives its back', async () => {
    const session = await hookSession(t, policy);
    const call = (n: number) => ({
      execution_id: session.id,
      call_id: `toolu_store_${n}`,
      tool: 'Bash',
      agent_id: null,
      arguments: { command: `echo ${n}` },
      capability: 'shell:exec',
      approved_by: null,
      requested_at: new Date(),
    });
    const ids = [];
    for (let n = 0; n < 4; n++) ids.push(await t.deps.hookCalls.open(call(n)));
    expect(ids.map((id) => id !== null)).toEqual([true, true, true, false]);
    await t.deps.hookCalls.discard(ids[0]!);
    expect(await t.deps.hookCalls.open(call(4))).toEqual(expect.any(String));
    expect(await t.deps.hookCalls.open(call(5))).toBeNull();
  });

  it('allows no more than the limit of pres sent at once to two replicas, and the record verifies', async () => {
    const session = await hookSession(t, policy);
    const pres = Array.from({ length: 8 }, (_, i) => claudePre('Bash', { command: `echo ${i}` }));
    const answers = await Promise.all(
      pres.map((pre, i) =>
        (i % 2 ? replica.request : t.request)
          .post('/api/v1/hooks/claude-code')
          .set('Authorization', `Bearer ${session.token}`)
          .send(pre)
          .expect(200),
      ),
    );
    const allowed = pres.filter((_, i) => decisionOf(answers[i]).decision === 'allow');
    expect(allowed).toHaveLength(3);
    for (const pre of allowed) await postHook(t, 'claude-code', session.token, claudePost(pre, { stdout: 'x' })).expect(200);
    const entries = await entriesOf(session.id);
    expect(entries.map(([seq]) => seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(entries.filter(([, verdict]) => verdict === 'allowed')).toHaveLength(3);
    expect(entries.filter(([, , reason]) => reason === 'tool_call_limit')).toHaveLength(5);
    expect(await verifiedExport(t, session.id)).toEqual({ code: 0, out: expect.stringContaining('8 certificate(s) checked') });
  });
});
