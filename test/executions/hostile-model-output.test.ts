import { startFakeLlm, type FakeLlm, type FakeReply } from '../fakes/fake-llm-server.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { waitFor } from './support/wait-for.js';

/**
 * A model (or a provider in its name) may answer what PostgreSQL cannot store, or more than any
 * honest answer holds. The run must record what it can and end; before, such an answer failed the
 * job five times, paying the provider each time, and lost the run (README, "Governed agent
 * executions").
 */
let llm: FakeLlm;
let t: TestApp;
let operator: TestUser;

beforeAll(async () => {
  llm = await startFakeLlm();
  t = await createTestApp(llm.env(), { worker: true });
  operator = await t.user('OPERATOR');
});
afterAll(async () => {
  await t.close();
  await llm.close();
});
beforeEach(() => llm.reset());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the execution as the API answers it
async function run(replies: FakeReply[], body: Record<string, unknown> = {}): Promise<any> {
  llm.script(...replies);
  llm.otherwise(() => ({ text: 'Done.' }));
  const created = await t.request
    .post('/api/v1/tasks')
    .set(operator.auth)
    .send({ task: 'Write the report.', ...body });
  expect(created.status).toBe(201);
  return waitFor(
    async () => (await t.request.get(`/api/v1/executions/${created.body.id}`).set(operator.auth)).body,
    (e) => !['queued', 'running'].includes(e.status),
    20_000,
  );
}

const report = (args: string) => ({ toolCalls: [{ name: 'write_report', arguments: args }] });

describe('an answer PostgreSQL cannot store as given', () => {
  it('keeps text with a NUL or a lone surrogate, each replaced by U+FFFD, and asks the provider once', async () => {
    const done = await run([{ text: 'before\u0000after \ud800 end' }]);
    expect(done).toMatchObject({ status: 'completed', output: 'before\uFFFDafter \uFFFD end' });
    expect(llm.requests).toHaveLength(1);
  });

  it('denies arguments holding a NUL as invalid_arguments, records their text, and goes on', async () => {
    const args = '{"name":"r\\u0000","content":"x"}';
    const done = await run([report(args)]);
    expect(done.status).toBe('completed');
    expect(done.tool_calls).toEqual([expect.objectContaining({ verdict: 'denied', reason: 'invalid_arguments', arguments: args })]);
    expect(llm.requests).toHaveLength(2);
  });

  it('denies arguments nested deeper than 100 levels, or holding a number beyond the double range', async () => {
    const deep = `{"name":"r","content":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const huge = '{"name":"r","content":"x","extra":1e400}';
    const done = await run([report(deep), report(huge)]);
    expect(done.status).toBe('completed');
    expect(done.tool_calls.map((c: { reason: string; arguments: unknown }) => [c.reason, c.arguments])).toEqual([
      ['invalid_arguments', deep],
      ['invalid_arguments', huge],
    ]);
  });

  it('records a tool name with a NUL as an unknown tool under the name made storable', async () => {
    const done = await run([{ toolCalls: [{ name: 'write\u0000report', arguments: '{}' }] }]);
    expect(done.status).toBe('completed');
    expect(done.tool_calls).toEqual([expect.objectContaining({ tool: 'write\uFFFDreport', reason: 'unknown_tool' })]);
  });
});

describe('an answer larger than any honest one', () => {
  it('denies arguments over 1 MiB as invalid_arguments and keeps only their first 4 KiB', async () => {
    const big = JSON.stringify({ name: 'r', content: 'x'.repeat(3 * 1024 * 1024) });
    const done = await run([report(big)]);
    expect(done.status).toBe('completed');
    const [entry] = done.tool_calls;
    expect(entry).toMatchObject({ verdict: 'denied', reason: 'invalid_arguments' });
    expect(entry.arguments).toMatch(/^\{"name":"r","content":"x{4000,}.*characters; only these were kept/s);
    expect(entry.arguments.length).toBeLessThan(5000);
    // The model is shown its own call as kept, not 3 MiB again.
    expect(JSON.stringify(llm.requests[1].body).length).toBeLessThan(64 * 1024);
  });
});

describe('usage that cannot be counted', () => {
  it.each([
    ['a figure past any context (1e15 tokens)', { prompt_tokens: 10, completion_tokens: 1e15, total_tokens: 1e15 + 10 }],
    ['a negative figure', { prompt_tokens: 10, completion_tokens: -500, total_tokens: 10 }],
    ['a figure sent as text', { prompt_tokens: 10, completion_tokens: '100', total_tokens: 110 }],
    ['more cached tokens than prompt tokens', { prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 9000 } }],
  ])('fails the run usage_missing, non_compliant, at the first answer: %s', async (_, rawUsage) => {
    const done = await run([{ text: 'answer', rawUsage }]);
    expect(done).toMatchObject({ status: 'failed', verdict: 'non_compliant', error: { code: 'usage_missing' } });
    expect(done.error.message).toMatch(/cannot be counted/);
    expect(llm.requests).toHaveLength(1);
  });
});

describe('a model that keeps calling what it is denied', () => {
  it('ends at max_tool_calls whatever the denials, recording one call past the limit', async () => {
    const unknown = (n: number) => Array.from({ length: n }, (_, i) => ({ name: 'no_such_tool', arguments: `{"i":${i}}` }));
    // The default policy allows 50 calls; one turn asks for 200.
    const done = await run([{ toolCalls: unknown(200) }]);
    expect(done).toMatchObject({ status: 'failed', error: { code: 'tool_call_limit' } });
    expect(done.tool_calls).toHaveLength(51);
    expect(llm.requests).toHaveLength(1);
  });
});
