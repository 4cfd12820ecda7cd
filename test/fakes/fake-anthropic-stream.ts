import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJson, sendJson, startHttpServer } from './fake-http.js';

/**
 * One scripted assistant turn: text, then tool calls (stop_reason `tool_use` when there are any,
 * else `end_turn`). A function sees the request first (e.g. to answer with what a tool returned).
 */
export interface StreamTurn {
  text?: string;
  toolUses?: { name: string; input: Record<string, unknown>; id?: string }[];
}
export type StreamResponder = (request: StreamRequest) => StreamTurn;

export interface StreamRequest {
  path: string;
  body: { model?: string; messages?: { role: string; content: unknown }[]; tools?: { name: string }[]; [key: string]: unknown };
}

export interface FakeAnthropicStream {
  /** ANTHROPIC_BASE_URL / COPILOT_PROVIDER_BASE_URL (without /v1). */
  url: string;
  /** Every request, in order. */
  requests: StreamRequest[];
  /**
   * Queues turns, one per request that offers tools (an agent's conversation or a sub-agent's);
   * requests without tools (titles, summaries) are answered with a short text and consume none.
   */
  script(...turns: (StreamTurn | StreamResponder)[]): void;
  /** Every `tool_result` the agent sent back, by tool_use id, as text. */
  toolResults(): Map<string, string>;
  /** Everything the agent sent the model, as one string (to assert what never reached it). */
  sentText(): string;
  reset(): void;
  close(): Promise<void>;
}

type Event = [string, Record<string, unknown>];

let ids = 0;

/** The server-sent events of one Messages response, as the real API streams them. */
function eventsOf(turn: StreamTurn, model: string): Event[] {
  const toolUses = (turn.toolUses ?? []).map((use) => ({ ...use, id: use.id ?? `toolu_fake${++ids}` }));
  const message = {
    id: `msg_fake${++ids}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 1 },
  };
  const events: Event[] = [['message_start', { type: 'message_start', message }]];
  let index = 0;
  if (turn.text !== undefined || toolUses.length === 0) {
    events.push(
      ['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: turn.text ?? 'Done.' } }],
      ['content_block_stop', { type: 'content_block_stop', index }],
    );
    index++;
  }
  for (const use of toolUses) {
    const block = { type: 'tool_use', id: use.id, name: use.name, input: {} };
    const partial = JSON.stringify(use.input);
    events.push(
      ['content_block_start', { type: 'content_block_start', index, content_block: block }],
      ['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } }],
      ['content_block_stop', { type: 'content_block_stop', index }],
    );
    index++;
  }
  const stop_reason = toolUses.length > 0 ? 'tool_use' : 'end_turn';
  events.push(
    ['message_delta', { type: 'message_delta', delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } }],
    ['message_stop', { type: 'message_stop' }],
  );
  return events;
}

function stream(res: ServerResponse, events: Event[]): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  for (const [name, data] of events) res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return JSON.stringify(content ?? '');
  return content.map((block: { text?: string; content?: unknown }) => block.text ?? textOf(block.content ?? '')).join('\n');
}

/**
 * A fake Anthropic Messages API streaming Server-Sent Events, enough for the real Claude Code and
 * Copilot CLI binaries (they only POST /v1/messages with `stream: true`). Turns are scripted per
 * test; an unscripted conversation request is answered 500, so a test notices a turn it did not expect.
 */
export async function startFakeAnthropicStream(): Promise<FakeAnthropicStream> {
  const requests: StreamRequest[] = [];
  let queue: (StreamTurn | StreamResponder)[] = [];
  const server = await startHttpServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/messages')
      return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: path } });
    const request = { path, body: (await readJson(req)) as StreamRequest['body'] };
    requests.push(request);
    const model = request.body.model ?? 'claude-sonnet-4-5';
    if (!request.body.tools?.length) return stream(res, eventsOf({ text: 'ok' }, model));
    const next = queue.shift();
    if (!next) return sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: 'fake model: no scripted turn left' } });
    stream(res, eventsOf(typeof next === 'function' ? next(request) : next, model));
  });
  return {
    url: server.url,
    requests,
    script: (...turns) => void queue.push(...turns),
    toolResults() {
      const results = new Map<string, string>();
      for (const request of requests)
        for (const message of request.body.messages ?? [])
          for (const block of Array.isArray(message.content) ? message.content : [])
            if (block?.type === 'tool_result') results.set(block.tool_use_id, textOf(block.content));
      return results;
    },
    sentText: () => requests.map((request) => JSON.stringify(request.body)).join('\n'),
    reset() {
      requests.length = 0;
      queue = [];
    },
    close: server.close,
  };
}
