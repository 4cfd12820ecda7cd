import { startHttpServer } from '../fakes/fake-http.js';
import { createAnthropicProvider } from '../../llm/anthropic-provider.js';
import { PROVIDER_MAX_RETRY_AFTER_SECONDS } from '../../llm/bounded-provider-fetch.js';
import { createOpenAiProvider } from '../../llm/openai-provider.js';
import { request, TASK } from './support/provider-fixtures.js';

// A provider is a remote the agent's words pass through: its answers are bounded like GitHub's
// (core/bounded-fetch.ts). Found by a black-box probe with a hostile fake provider.

const COMPLETION = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

it(`waits at most ${PROVIDER_MAX_RETRY_AFTER_SECONDS} s where a 429 asks for 999999 (the SDK slept 27 hours, past a cancel)`, async () => {
  let calls = 0;
  const provider = await startHttpServer(async (_req, res) => {
    if (++calls === 1) {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '999999', 'retry-after-ms': '99999999' });
      return void res.end('{"error":{"message":"slow down"}}');
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(COMPLETION));
  });
  try {
    const openai = createOpenAiProvider({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 1 });
    const started = performance.now();
    const answer = await openai.complete(request('gpt-4o-mini', [{ role: 'user', content: TASK }]));
    expect([answer.text, calls]).toEqual(['ok', 2]);
    expect(performance.now() - started).toBeLessThan((PROVIDER_MAX_RETRY_AFTER_SECONDS + 5) * 1000);
  } finally {
    await provider.close();
  }
}, 30_000);

it('gives up on an answer that trickles in forever at the request timeout (the SDK’s own covers only the headers)', async () => {
  const provider = await startHttpServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const drip = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(drip));
  });
  try {
    for (const complete of [
      createOpenAiProvider({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, maxRetries: 0, timeoutMs: 500 }).complete,
      createAnthropicProvider({ apiKey: 'sk-ant-test', baseURL: provider.url, maxRetries: 0, timeoutMs: 500 }).complete,
    ]) {
      const started = performance.now();
      await expect(complete(request('gpt-4o-mini', [{ role: 'user', content: TASK }]))).rejects.toBeDefined();
      expect(performance.now() - started).toBeLessThan(3_000);
    }
  } finally {
    await provider.close();
  }
});
