import type { IncomingMessage, ServerResponse } from 'node:http';
import { anthropicWire } from './fake-anthropic-wire.js';
import { onClientAbort, readJson, sendJson, startHttpServer, waitUnlessClosed } from './fake-http.js';
import type { FakeReply, FakeResponder, LlmRequest, LlmWire } from './fake-llm-reply.js';
import { openaiWire } from './fake-openai-wire.js';

export type { FakeReply, FakeResponder, FakeToolCall, FakeUsage, LlmRequest } from './fake-llm-reply.js';

export interface FakeLlm {
  /** For the OpenAI SDK (includes /v1). */
  openaiBaseUrl: string;
  /** For the Anthropic SDK (excludes /v1). */
  anthropicBaseUrl: string;
  /** Every request received, in order. */
  requests: LlmRequest[];
  /** The requests whose client closed the connection before the answer. */
  readonly aborted: LlmRequest[];
  /** When set, requests must carry this key (Authorization: Bearer for OpenAI, x-api-key for Anthropic). */
  expectedApiKey: string | undefined;
  /** Queues replies, consumed one per accepted request by either API. */
  script(...replies: (FakeReply | FakeResponder)[]): void;
  /** Answers requests once the queue is empty (by default they get a 500 saying nothing was scripted). */
  otherwise(responder: FakeResponder): void;
  /** Resolves with the first request aborted from now on (or one already aborted and not yet awaited). */
  whenAborted(): Promise<LlmRequest>;
  /** Service configuration pointing both providers here, e.g. createTestApp(llm.env()). */
  env(apiKey?: string): Record<string, string>;
  /** Forgets requests, the queue and the fallback. */
  reset(): void;
  close(): Promise<void>;
}

const ROUTES: Record<string, LlmWire> = { '/v1/chat/completions': openaiWire, '/v1/messages': anthropicWire };

const nothingScripted: FakeResponder = () => ({ status: 500, errorMessage: 'fake LLM: no scripted reply left' });

/**
 * A fake LLM speaking the OpenAI and Anthropic wire formats well enough for the real SDKs, and
 * refusing (400) the conversations the real APIs refuse, so tests catch transcripts that would
 * break in production.
 */
export async function startFakeLlm(options: { apiKey?: string } = {}): Promise<FakeLlm> {
  const queue: (FakeReply | FakeResponder)[] = [];
  let fallback = nothingScripted;
  let counter = 0;
  const nextId = () => ++counter;
  const unseenAborts: LlmRequest[] = [];
  const abortWaiters: ((request: LlmRequest) => void)[] = [];

  function noteAbort(request: LlmRequest) {
    request.aborted = true;
    const waiter = abortWaiters.shift();
    if (waiter) waiter(request);
    else unseenAborts.push(request);
  }

  function answer(res: ServerResponse, request: LlmRequest, status: number, body: unknown) {
    if (request.aborted) return;
    request.status = status;
    sendJson(res, status, body, { 'x-request-id': `req_${nextId()}`, 'request-id': `req_${nextId()}` });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? '').split('?')[0];
    const wire = req.method === 'POST' ? ROUTES[path] : undefined;
    if (!wire)
      return sendJson(res, 404, { error: { message: `Unknown request URL: ${req.method} ${path}`, type: 'invalid_request_error' } });
    const body = await readJson(req);
    const request: LlmRequest = { api: wire.api, path, headers: req.headers, body, status: null, aborted: false };
    fake.requests.push(request);
    onClientAbort(res, () => noteAbort(request));
    if (body instanceof Error) return answer(res, request, 400, wire.error(400, 'We could not parse the JSON body of your request.'));
    const sentKey = wire.credential(req.headers);
    if (fake.expectedApiKey !== undefined && sentKey !== fake.expectedApiKey) {
      const refusal = wire.authError(sentKey);
      return answer(res, request, refusal.status, refusal.body);
    }
    const problem = wire.validate(body, req.headers);
    if (problem) return answer(res, request, 400, wire.error(400, problem));
    const next = queue.shift() ?? fallback;
    const reply = typeof next === 'function' ? await next(request) : next;
    await waitUnlessClosed(res, reply.delayMs ?? 0);
    if (reply.status !== undefined)
      return answer(res, request, reply.status, wire.error(reply.status, reply.errorMessage ?? `fake error ${reply.status}`));
    answer(res, request, 200, wire.completion(reply, request, nextId));
  }

  const server = await startHttpServer(handle);
  const fake: FakeLlm = {
    openaiBaseUrl: `${server.url}/v1`,
    anthropicBaseUrl: server.url,
    requests: [],
    get aborted() {
      return fake.requests.filter((r) => r.aborted);
    },
    expectedApiKey: options.apiKey,
    script: (...replies) => void queue.push(...replies),
    otherwise: (responder) => void (fallback = responder),
    whenAborted: () => {
      const seen = unseenAborts.shift();
      return seen ? Promise.resolve(seen) : new Promise((resolve) => abortWaiters.push(resolve));
    },
    env: (apiKey = fake.expectedApiKey ?? 'sk-fake-llm-key') => ({
      OPENAI_BASE_URL: fake.openaiBaseUrl,
      ANTHROPIC_BASE_URL: fake.anthropicBaseUrl,
      OPENAI_API_KEY: apiKey,
      ANTHROPIC_API_KEY: apiKey,
    }),
    reset: () => {
      fake.requests.length = 0;
      queue.length = 0;
      unseenAborts.length = 0;
      fallback = nothingScripted;
    },
    close: () => server.close(),
  };
  return fake;
}
