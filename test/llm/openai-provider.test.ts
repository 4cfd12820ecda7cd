import { inspect } from 'node:util';
import { ProviderError, type ChatMessage } from '../../core/agent/provider.js';
import { createOpenAiProvider, OPENAI_DEFAULT_BASE_URL, tokenLimitFieldFor } from '../../llm/openai-provider.js';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';
import { failureAndConsole, readFileTool, request, slowReply, SYSTEM, TASK } from './provider-fixtures.js';

const KEY = 'sk-test-openai-Zq81distinctive5521';
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm({ apiKey: KEY });
});
afterEach(() => llm.reset());
afterAll(() => llm.close());

const openai = (apiKey = KEY) => createOpenAiProvider({ apiKey, baseURL: llm.openaiBaseUrl, maxRetries: 0 });
const ask = (messages: ChatMessage[], signal?: AbortSignal) => openai().complete(request('gpt-4o-mini', messages, signal));

describe('OpenAI provider against the fake Chat Completions API', () => {
  it('runs a tool-call round trip that the API accepts', async () => {
    llm.script({ toolCalls: [{ name: 'repo_read_file', arguments: '{"path":"README.md"}' }] }, { text: 'The README explains the gate.' });
    const first = await ask([{ role: 'user', content: TASK }]);
    expect(first).toMatchObject({
      text: null,
      stopReason: 'tool_calls',
      toolCalls: [{ id: expect.any(String), name: 'repo_read_file', arguments: '{"path":"README.md"}' }],
    });
    const callId = first.toolCalls[0].id;
    const second = await ask([
      { role: 'user', content: TASK },
      { role: 'assistant', content: first.text, tool_calls: first.toolCalls },
      { role: 'tool', tool_call_id: callId, content: '# shipgate' },
    ]);
    expect(second).toMatchObject({ text: 'The README explains the gate.', toolCalls: [], stopReason: 'stop' });

    expect(llm.requests.map((r) => r.status)).toEqual([200, 200]);
    const sent = llm.requests[1];
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body.messages).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: TASK },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: callId, type: 'function', function: { name: 'repo_read_file', arguments: '{"path":"README.md"}' } }],
      },
      { role: 'tool', tool_call_id: callId, content: '# shipgate' },
    ]);
    expect(sent.body.tools).toEqual([
      {
        type: 'function',
        function: { name: readFileTool.name, description: readFileTool.description, parameters: readFileTool.parameters },
      },
    ]);
    // Not api.openai.com: OpenAI-compatible servers (Ollama, LM Studio) only understand max_tokens.
    expect(sent.body).toMatchObject({ model: 'gpt-4o-mini', max_tokens: 256 });
    expect(sent.body).not.toHaveProperty('max_completion_tokens');
  });

  it('sends max_completion_tokens when asked to, as api.openai.com expects', async () => {
    llm.script({ text: 'ok' });
    const provider = createOpenAiProvider({
      apiKey: KEY,
      baseURL: llm.openaiBaseUrl,
      maxRetries: 0,
      tokenLimitField: 'max_completion_tokens',
    });
    await provider.complete(request('o4-mini', [{ role: 'user', content: TASK }]));
    expect(llm.requests[0].body.max_completion_tokens).toBe(256);
    expect(llm.requests[0].body).not.toHaveProperty('max_tokens');
  });

  it('defaults to max_completion_tokens only for api.openai.com', () => {
    expect(tokenLimitFieldFor(OPENAI_DEFAULT_BASE_URL)).toBe('max_completion_tokens');
    expect(tokenLimitFieldFor('http://localhost:11434/v1')).toBe('max_tokens');
  });

  it('passes unparsable tool arguments through untouched, both ways', async () => {
    const broken = '{"path": "READ';
    llm.script({ toolCalls: [{ id: 'call_broken', name: 'repo_read_file', arguments: broken }] }, { text: 'Sorry.' });
    const first = await ask([{ role: 'user', content: TASK }]);
    expect(first.toolCalls).toEqual([{ id: 'call_broken', name: 'repo_read_file', arguments: broken }]);
    await ask([
      { role: 'user', content: TASK },
      { role: 'assistant', content: null, tool_calls: first.toolCalls },
      { role: 'tool', tool_call_id: 'call_broken', content: 'DENIED: invalid_arguments' },
    ]);
    expect(llm.requests[1].status).toBe(200);
    expect(llm.requests[1].body.messages[2].tool_calls[0].function.arguments).toBe(broken);
  });

  it('is refused by the API when a tool call was left unanswered', async () => {
    llm.script({ text: 'never sent' });
    const transcript: ChatMessage[] = [
      { role: 'user', content: TASK },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', name: 'repo_read_file', arguments: '{"path":"a"}' },
          { id: 'call_b', name: 'repo_read_file', arguments: '{"path":"b"}' },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'a' },
      { role: 'user', content: 'Go on.' },
    ];
    const error = await ask(transcript).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 400, aborted: false });
    expect((error as Error).message).toContain('did not have response messages: call_b');
    expect(llm.requests[0].status).toBe(400);
  });

  it('maps usage: cached tokens are part of prompt_tokens and counted once', async () => {
    llm.script(
      {
        text: 'a',
        rawUsage: { prompt_tokens: 1200, completion_tokens: 80, total_tokens: 1280, prompt_tokens_details: { cached_tokens: 1000 } },
      },
      { text: 'b', rawUsage: { prompt_tokens: 30, completion_tokens: 7, total_tokens: 37 } },
      { text: 'c', usage: null },
    );
    const messages: ChatMessage[] = [{ role: 'user', content: TASK }];
    expect((await ask(messages)).usage).toEqual({ inputTokens: 200, cacheReadTokens: 1000, outputTokens: 80, cacheWriteTokens: 0 });
    expect((await ask(messages)).usage).toEqual({ inputTokens: 30, cacheReadTokens: 0, outputTokens: 7, cacheWriteTokens: 0 });
    expect((await ask(messages)).usage).toBeNull();
  });

  it('aborts a slow request: rejects with aborted=true and the server sees the connection closed', async () => {
    const controller = new AbortController();
    const received = slowReply(llm, 20_000);
    const pending = ask([{ role: 'user', content: TASK }], controller.signal);
    await received;
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'ProviderError', aborted: true });
    const seen = await llm.whenAborted();
    expect(seen).toMatchObject({ api: 'openai', aborted: true, status: null });
  });

  it('rejects at once, without a request, when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(ask([{ role: 'user', content: TASK }], controller.signal)).rejects.toMatchObject({ aborted: true });
    expect(llm.requests).toHaveLength(0);
  });

  it.each([500, 429, 503])('turns HTTP %i into a ProviderError that never carries the key', async (status) => {
    llm.script({ status, errorMessage: `upstream trouble while serving key ${KEY}` });
    const { error, output } = await failureAndConsole(() => ask([{ role: 'user', content: TASK }]));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status, aborted: false });
    expect((error as Error).message).toContain(`openai API error ${status}: upstream trouble`);
    expect(`${inspect(error)} ${JSON.stringify(error)} ${output}`).not.toContain(KEY);
  });

  it('turns an unreachable server into a ProviderError without a status', async () => {
    const unreachable = createOpenAiProvider({ apiKey: KEY, baseURL: 'http://127.0.0.1:1/v1', maxRetries: 0 });
    const error = await unreachable.complete(request('gpt-4o-mini', [{ role: 'user', content: TASK }])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: undefined, aborted: false, message: expect.stringMatching(/^openai request failed: /) });
  });

  it('answers a wrong key with 401 and keeps even the masked key out of the message', async () => {
    const wrong = 'sk-wrong-key-Hh71distinctive0042';
    const { error, output } = await failureAndConsole(() =>
      openai(wrong).complete(request('gpt-4o-mini', [{ role: 'user', content: TASK }])),
    );
    expect(error).toMatchObject({ name: 'ProviderError', status: 401 });
    expect((error as Error).message).toContain('Incorrect API key provided');
    expect(`${inspect(error)} ${output}`).not.toMatch(/0042|\*\*\*|sk-wrong/);
    expect(llm.requests[0].headers.authorization).toBe(`Bearer ${wrong}`);
  });
});
