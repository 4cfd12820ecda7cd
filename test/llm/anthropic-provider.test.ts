import type { ChatMessage } from '../../core/agent/provider.js';
import { createAnthropicProvider } from '../../llm/anthropic-provider.js';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';
import { readFileTool, request, SYSTEM, TASK } from './support/provider-fixtures.js';

const KEY = 'sk-ant-test-Pw44distinctive9137';
const MODEL = 'claude-3-5-haiku-latest';
let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm({ apiKey: KEY });
});
afterEach(() => llm.reset());
afterAll(() => llm.close());

const anthropic = (apiKey = KEY) => createAnthropicProvider({ apiKey, baseURL: llm.anthropicBaseUrl, maxRetries: 0 });
const ask = (messages: ChatMessage[], signal?: AbortSignal) => anthropic().complete(request(MODEL, messages, signal));

// What both adapters promise is the shared contract (test/llm/provider-contract.test.ts); this
// file holds what only the Messages wire format has.
describe('Anthropic provider against the fake Messages API', () => {
  it('runs a round trip with two parallel tool calls answered in ONE user message', async () => {
    llm.script(
      {
        text: 'Reading both.',
        toolCalls: [
          { name: 'repo_read_file', arguments: '{"path":"README.md"}' },
          { name: 'repo_read_file', arguments: '{"path":"CHANGELOG.md"}' },
        ],
      },
      { text: 'Both files describe the gate.' },
    );
    const first = await ask([{ role: 'user', content: TASK }]);
    expect(first).toMatchObject({ text: 'Reading both.', stopReason: 'tool_use' });
    expect(first.toolCalls.map((c) => c.arguments)).toEqual(['{"path":"README.md"}', '{"path":"CHANGELOG.md"}']);
    const [a, b] = first.toolCalls;
    const second = await ask([
      { role: 'user', content: TASK },
      { role: 'assistant', content: first.text, tool_calls: first.toolCalls },
      { role: 'tool', tool_call_id: a.id, content: '# shipgate' },
      { role: 'tool', tool_call_id: b.id, content: '## 0.1.0' },
    ]);
    expect(second).toMatchObject({ text: 'Both files describe the gate.', toolCalls: [], stopReason: 'end_turn' });

    expect(llm.requests.map((r) => r.status)).toEqual([200, 200]);
    const sent = llm.requests[1];
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toMatchObject({ model: MODEL, system: SYSTEM, max_tokens: 256 });
    expect(sent.body.tools).toEqual([
      { name: readFileTool.name, description: readFileTool.description, input_schema: readFileTool.parameters },
    ]);
    expect(sent.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: TASK }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Reading both.' },
          { type: 'tool_use', id: a.id, name: 'repo_read_file', input: { path: 'README.md' } },
          { type: 'tool_use', id: b.id, name: 'repo_read_file', input: { path: 'CHANGELOG.md' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: a.id, content: '# shipgate' },
          { type: 'tool_result', tool_use_id: b.id, content: '## 0.1.0' },
        ],
      },
    ]);
  });

  it('keeps roles alternating when a user message follows the tool results', async () => {
    llm.script({ text: 'ok' });
    await ask([
      { role: 'user', content: TASK },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', name: 'repo_read_file', arguments: '{"path":"a"}' }] },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'a' },
      { role: 'user', content: 'Budget is nearly spent; answer now.' },
    ]);
    expect(llm.requests[0].status).toBe(200);
    expect(llm.requests[0].body.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'a' },
        { type: 'text', text: 'Budget is nearly spent; answer now.' },
      ],
    });
  });

  it('replays a call whose arguments did not parse with {} as input, and the API accepts it', async () => {
    llm.script({ text: 'ok' });
    await ask([
      { role: 'user', content: TASK },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_bad', name: 'repo_read_file', arguments: '{"path": "READ' }] },
      { role: 'tool', tool_call_id: 'toolu_bad', content: 'DENIED: invalid_arguments' },
    ]);
    expect(llm.requests[0].status).toBe(200);
    expect(llm.requests[0].body.messages[1].content).toEqual([{ type: 'tool_use', id: 'toolu_bad', name: 'repo_read_file', input: {} }]);
  });

  it('maps usage, counting cache writes and reads separately', async () => {
    llm.script(
      { text: 'a', rawUsage: { input_tokens: 50, output_tokens: 20, cache_creation_input_tokens: 300, cache_read_input_tokens: 1000 } },
      { text: 'b', rawUsage: { input_tokens: 5, output_tokens: 2, cache_creation_input_tokens: null, cache_read_input_tokens: null } },
      { text: 'c', usage: null },
    );
    const messages: ChatMessage[] = [{ role: 'user', content: TASK }];
    expect((await ask(messages)).usage).toEqual({ inputTokens: 50, outputTokens: 20, cacheWriteTokens: 300, cacheReadTokens: 1000 });
    expect((await ask(messages)).usage).toEqual({ inputTokens: 5, outputTokens: 2, cacheWriteTokens: 0, cacheReadTokens: 0 });
    expect((await ask(messages)).usage).toBeNull();
  });

  it('accepts a large max_tokens without demanding streaming', async () => {
    llm.script({ text: 'ok' });
    await anthropic().complete({ ...request(MODEL, [{ role: 'user', content: TASK }]), maxTokens: 64_000 });
    expect(llm.requests[0].body.max_tokens).toBe(64_000);
  });
});
