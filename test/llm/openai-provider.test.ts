import type { ChatMessage } from '../../core/agent/provider.js';
import { createOpenAiProvider, OPENAI_DEFAULT_BASE_URL, tokenLimitFieldFor } from '../../llm/openai-provider.js';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';
import { readFileTool, request, SYSTEM, TASK } from './support/provider-fixtures.js';

const KEY = 'sk-test-openai-Zq81distinctive5521';
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm({ apiKey: KEY });
});
afterEach(() => llm.reset());
afterAll(() => llm.close());

const openai = (apiKey = KEY) => createOpenAiProvider({ apiKey, baseURL: llm.openaiBaseUrl, maxRetries: 0 });
const ask = (messages: ChatMessage[], signal?: AbortSignal) => openai().complete(request('gpt-4o-mini', messages, signal));

// What both adapters promise is the shared contract (test/llm/provider-contract.test.ts); this
// file holds what only the Chat Completions wire format has.
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
});
