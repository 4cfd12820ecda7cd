import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJson, sendJson, startHttpServer } from './fake-http.js';

/** One scripted model turn: text, or function calls (Gemini's tool calls). */
export interface GeminiTurn {
  text?: string;
  calls?: { name: string; args: Record<string, unknown> }[];
}

interface Part {
  text?: string;
  functionCall?: { name: string; args: Record<string, unknown> };
  functionResponse?: { name: string; response: unknown };
}

export interface GeminiRequest {
  path: string;
  body: { contents?: { role: string; parts: Part[] }[]; tools?: unknown[]; [key: string]: unknown };
}

export interface FakeGeminiStream {
  /** GOOGLE_GEMINI_BASE_URL. */
  url: string;
  /** Every request, in order. */
  requests: GeminiRequest[];
  /** Queues turns, one per streamed conversation request. */
  script(...turns: GeminiTurn[]): void;
  /** Every function response the agent sent back, in order, once each (a request repeats the conversation's), as text. */
  functionResponses(): string[];
  reset(): void;
  close(): Promise<void>;
}

/** A GenerateContentResponse holding `parts`. */
function responseOf(parts: Part[]) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'gemini-fake',
  };
}

/**
 * A fake Gemini API (generativelanguage v1beta), enough for the real Gemini CLI: its model router's
 * `generateContent` (answered with the classifier's JSON) and the conversation's
 * `streamGenerateContent?alt=sse` (scripted turns as Server-Sent Events). An unscripted
 * conversation request is answered 500, so a test notices a turn it did not expect.
 */
export async function startFakeGeminiStream(): Promise<FakeGeminiStream> {
  const requests: GeminiRequest[] = [];
  let queue: GeminiTurn[] = [];
  const server = await startHttpServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    const body = req.method === 'POST' ? ((await readJson(req)) as GeminiRequest['body']) : {};
    requests.push({ path, body });
    if (path.endsWith(':generateContent'))
      return sendJson(res, 200, responseOf([{ text: JSON.stringify({ complexity_reasoning: 'A simple task.', complexity_score: 10 }) }]));
    if (path.endsWith(':countTokens')) return sendJson(res, 200, { totalTokens: 10 });
    if (!path.endsWith(':streamGenerateContent')) return sendJson(res, 404, { error: { code: 404, message: path, status: 'NOT_FOUND' } });
    const next = queue.shift();
    if (!next) return sendJson(res, 500, { error: { code: 500, message: 'fake model: no scripted turn left', status: 'INTERNAL' } });
    const parts: Part[] = next.calls ? next.calls.map((call) => ({ functionCall: call })) : [{ text: next.text ?? 'Done.' }];
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    res.end(`data: ${JSON.stringify(responseOf(parts))}\r\n\r\n`);
  });
  return {
    url: server.url,
    requests,
    script: (...turns) => void queue.push(...turns),
    functionResponses: () => [
      ...new Set(
        requests.flatMap((request) =>
          (request.body.contents ?? []).flatMap((content) =>
            content.parts.filter((part) => part.functionResponse).map((part) => JSON.stringify(part.functionResponse)),
          ),
        ),
      ),
    ],
    reset() {
      requests.length = 0;
      queue = [];
    },
    close: server.close,
  };
}
