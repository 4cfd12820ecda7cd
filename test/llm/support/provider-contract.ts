import { inspect } from 'node:util';
import { ProviderError, type ChatMessage, type Provider } from '../../../core/agent/provider.js';
import { startFakeLlm, type FakeLlm } from '../../fakes/fake-llm-server.js';
import { failureAndConsole, request, slowReply, TASK } from './provider-fixtures.js';

/** One LLM adapter under test, pointed at the fake server speaking its real wire format. */
export interface ProviderSubject {
  api: 'openai' | 'anthropic';
  model: string;
  /** The key the fake accepts, and a distinctive wrong one. */
  key: string;
  wrongKey: string;
  /** The adapter with no SDK retries, against `baseURL`. */
  create(options: { apiKey: string; baseURL: string }): Provider;
  /** Where the fake serves this adapter's API. */
  baseUrlOf(llm: FakeLlm): string;
  /** A base URL where nothing listens. */
  unreachableBaseUrl: string;
  /** HTTP statuses the API answers when it is in trouble. */
  troubleStatuses: number[];
}

/**
 * What every provider adapter promises the runtime (core/agent/provider.ts), whatever its wire
 * format: tool calls out and answers back, refusal of an unanswered call, missing usage as null,
 * aborts, and errors that are ProviderErrors and never carry the key. Each adapter's own test file
 * keeps what only its wire format has.
 */
export function providerContract(subject: ProviderSubject): void {
  describe(`${subject.api} provider: the provider contract`, () => {
    let llm: FakeLlm;
    beforeAll(async () => {
      llm = await startFakeLlm({ apiKey: subject.key });
    });
    afterEach(() => llm.reset());
    afterAll(() => llm.close());

    const provider = (apiKey = subject.key) => subject.create({ apiKey, baseURL: subject.baseUrlOf(llm) });
    const ask = (messages: ChatMessage[], signal?: AbortSignal) => provider().complete(request(subject.model, messages, signal));

    it('returns the tool calls the model makes and takes their answers back, and the API accepts both requests', async () => {
      llm.script({ toolCalls: [{ name: 'repo_read_file', arguments: '{"path":"README.md"}' }] }, { text: 'The README explains the gate.' });
      const first = await ask([{ role: 'user', content: TASK }]);
      expect(first.toolCalls).toEqual([{ id: expect.any(String), name: 'repo_read_file', arguments: '{"path":"README.md"}' }]);
      const second = await ask([
        { role: 'user', content: TASK },
        { role: 'assistant', content: first.text, tool_calls: first.toolCalls },
        { role: 'tool', tool_call_id: first.toolCalls[0].id, content: '# shipgate' },
      ]);
      expect(second).toMatchObject({ text: 'The README explains the gate.', toolCalls: [] });
      expect(llm.requests.map((r) => [r.api, r.status])).toEqual([
        [subject.api, 200],
        [subject.api, 200],
      ]);
    });

    it('is refused by the API (400, not aborted) when a tool call was left unanswered', async () => {
      llm.script({ text: 'never sent' });
      const error = await ask([
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
      ]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ status: 400, aborted: false });
      expect((error as Error).message).toContain('call_b');
    });

    it('reports a reply without usage as null usage (the runtime fails closed on it)', async () => {
      llm.script({ text: 'c', usage: null });
      expect((await ask([{ role: 'user', content: TASK }])).usage).toBeNull();
    });

    it('aborts a slow request: rejects with aborted=true and the server sees the connection closed', async () => {
      const controller = new AbortController();
      const received = slowReply(llm, 20_000);
      const pending = ask([{ role: 'user', content: TASK }], controller.signal);
      await received;
      controller.abort();
      await expect(pending).rejects.toMatchObject({ name: 'ProviderError', aborted: true });
      expect(await llm.whenAborted()).toMatchObject({ api: subject.api, aborted: true, status: null });
    });

    it('rejects at once, without a request, when the signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(ask([{ role: 'user', content: TASK }], controller.signal)).rejects.toMatchObject({ aborted: true });
      expect(llm.requests).toHaveLength(0);
    });

    it('turns an API in trouble into a ProviderError with its status that never carries the key', async () => {
      for (const status of subject.troubleStatuses) {
        llm.script({ status, errorMessage: `upstream trouble while serving key ${subject.key}` });
        const { error, output } = await failureAndConsole(() => ask([{ role: 'user', content: TASK }]));
        expect(error).toBeInstanceOf(ProviderError);
        expect(error).toMatchObject({ status, aborted: false });
        expect((error as Error).message).toContain(`${subject.api} API error ${status}: upstream trouble`);
        expect(`${inspect(error)} ${JSON.stringify(error)} ${output}`).not.toContain(subject.key);
      }
    });

    it('turns an unreachable server into a ProviderError without a status', async () => {
      const unreachable = subject.create({ apiKey: subject.key, baseURL: subject.unreachableBaseUrl });
      const error = await unreachable.complete(request(subject.model, [{ role: 'user', content: TASK }])).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({
        status: undefined,
        aborted: false,
        message: expect.stringMatching(new RegExp(`^${subject.api} request failed: `)),
      });
    });

    it('answers a wrong key with 401 and keeps it out of the error and the console', async () => {
      const { error, output } = await failureAndConsole(() =>
        provider(subject.wrongKey).complete(request(subject.model, [{ role: 'user', content: TASK }])),
      );
      expect(error).toMatchObject({ name: 'ProviderError', status: 401, aborted: false });
      expect(`${inspect(error)} ${output}`).not.toContain(subject.wrongKey);
      expect(`${inspect(error)} ${output}`).not.toContain(subject.wrongKey.slice(-4));
    });
  });
}
