import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';

/** The fake's refusals are what make the adapter tests meaningful, so they are checked on the raw wire. */
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterEach(() => {
  llm.reset();
  llm.expectedApiKey = undefined;
});
afterAll(() => llm.close());

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${llm.anthropicBaseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads wire JSON freely
  return { status: res.status, body: (await res.json()) as any };
}
const anthropic = (body: unknown) => post('/v1/messages', body, { 'anthropic-version': '2023-06-01', 'x-api-key': 'k' });
const openai = (body: unknown) => post('/v1/chat/completions', body, { authorization: 'Bearer k' });

const toolUse = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'repo_read_file', input: {} }] };

describe('fake Anthropic Messages API', () => {
  it('refuses a request without max_tokens, in the API error shape, without consuming the script', async () => {
    llm.script({ text: 'scripted' });
    const res = await anthropic({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(res).toEqual({
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } },
    });
    const ok = await anthropic({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
    expect(ok.body.content).toEqual([{ type: 'text', text: 'scripted', citations: null }]);
  });

  it('refuses roles that do not alternate', async () => {
    const res = await anthropic({
      model: 'm',
      max_tokens: 5,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('roles must alternate');
  });

  it('refuses a tool_use without a tool_result in the next message, and a stray tool_result', async () => {
    const unanswered = await anthropic({
      model: 'm',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'a' }, toolUse, { role: 'user', content: 'go on' }],
    });
    expect(unanswered.status).toBe(400);
    expect(unanswered.body.error.message).toContain('`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1');
    const trailing = await anthropic({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'a' }, toolUse] });
    expect(trailing.status).toBe(400);
    const stray = await anthropic({
      model: 'm',
      max_tokens: 5,
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }] }],
    });
    expect(stray.body.error.message).toContain('unexpected `tool_use_id` found in `tool_result` blocks: toolu_9');
  });

  it('sends unparsable scripted arguments as a JSON string input', async () => {
    llm.script({ toolCalls: [{ id: 'toolu_x', name: 'repo_read_file', arguments: '{"path":' }] });
    const res = await anthropic({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'a' }] });
    expect(res.body).toMatchObject({ stop_reason: 'tool_use', content: [{ type: 'tool_use', id: 'toolu_x', input: '{"path":' }] });
  });
});

describe('fake OpenAI Chat Completions API', () => {
  it('refuses a tool call left unanswered before the next user message', async () => {
    const res = await openai({
      model: 'm',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 't', arguments: '{}' } }] },
        { role: 'user', content: 'go on' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringContaining('did not have response messages: call_1'),
    });
  });

  it('refuses a tool message that answers nothing', async () => {
    const res = await openai({
      model: 'm',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'tool', tool_call_id: 'call_9', content: 'x' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("messages with role 'tool' must be a response to a preceeding message with 'tool_calls'");
  });

  it('answers 401 for a missing or wrong key once a key is expected', async () => {
    llm.expectedApiKey = 'sk-expected-key-000';
    const wrong = await openai({ model: 'm', messages: [{ role: 'user', content: 'a' }] });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('invalid_api_key');
    const missing = await post(
      '/v1/messages',
      { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'a' }] },
      { 'anthropic-version': '2023-06-01' },
    );
    expect(missing).toEqual({
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: 'invalid authentication credentials' } },
    });
  });

  it('answers from a responder function that sees the request, and reports an empty script as a 500', async () => {
    llm.script((req) => ({ text: `you said ${req.body.messages[0].content}` }));
    const res = await openai({ model: 'm', messages: [{ role: 'user', content: 'ping' }] });
    expect(res.body.choices[0]).toMatchObject({ message: { role: 'assistant', content: 'you said ping' }, finish_reason: 'stop' });
    const empty = await openai({ model: 'm', messages: [{ role: 'user', content: 'ping' }] });
    expect(empty).toMatchObject({ status: 500, body: { error: { message: 'fake LLM: no scripted reply left' } } });
  });
});
