import http from 'node:http';
import https from 'node:https';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Kept-alive connections to upstreams, shared by every MCP session's client (a request picks any free one). */
const AGENTS = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/** How long after its `GET` stream ended one is asked for again (an upstream's notifications travel on it). */
const STREAM_RETRY_MS = 1000;

/**
 * The most one upstream message (a JSON answer, or one event of a stream) may hold, in characters
 * (docs/mcp-gateway.md, "Limits"). An upstream is trusted to run tools, not to be small: a 100 MB
 * result held the event loop for seconds, and an event that never ended grew without bound.
 */
export const MAX_UPSTREAM_MESSAGE_CHARS = 4 * 1024 * 1024;

const tooLarge = () => new Error(`the upstream's message is larger than ${MAX_UPSTREAM_MESSAGE_CHARS / 1024 / 1024} MiB`);

/**
 * The Streamable HTTP client side as the SDK's `Client` uses it (its `Transport` interface), over
 * `node:http` (docs/benchmarks.md, the MCP gateway: the SDK's own client transport goes through
 * undici's `fetch` and web streams, which cost a call more CPU than anything else shipgate does
 * for it). Each message is one POST answered by JSON or an event stream (both read); the
 * session id and negotiated protocol version are sent with every later request; after
 * `initialize` a `GET` stream carries the upstream's own notifications (tool list changes),
 * asked for again when it ends (an upstream without one answers 405 and is not asked again).
 * Redirects are not followed. `headers()` gives each request's headers (a bearer token refreshed
 * meanwhile included).
 */
export class NodeHttpMcpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  sessionId?: string;
  private protocolVersion?: string;
  private closed = false;
  private readonly open = new Set<http.ClientRequest>();

  constructor(
    private readonly url: URL,
    private readonly headers: () => Promise<Record<string, string>>,
  ) {}

  async start(): Promise<void> {}

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const body = JSON.stringify(message);
    const res = await this.request('POST', { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }, body);
    const sessionId = res.headers['mcp-session-id'];
    if (typeof sessionId === 'string') this.sessionId = sessionId;
    const status = res.statusCode ?? 0;
    const initialized = 'method' in message && message.method === 'notifications/initialized';
    if (status === 202) {
      res.resume();
      // A notification is answered 202 by the specification: its stream is asked for all the same.
      if (initialized) void this.listen();
      return;
    }
    if (status >= 300) throw new Error(`the upstream answered HTTP ${status}: ${(await textOf(res)).slice(0, 200)}`);
    const type = String(res.headers['content-type'] ?? '');
    if (type.includes('text/event-stream')) this.readEvents(res);
    else {
      const text = await textOf(res);
      if (text.trim()) this.deliver(JSON.parse(text));
    }
    if (initialized) void this.listen();
  }

  /** Ends the upstream's session (`DELETE`); its failure is nobody's. */
  async terminateSession(): Promise<void> {
    if (!this.sessionId) return;
    const res = await this.request('DELETE', {});
    res.resume();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const req of this.open) req.destroy();
    this.open.clear();
    this.onclose?.();
  }

  /** The upstream's own messages, on a `GET` event stream for as long as the session lasts. */
  private async listen(): Promise<void> {
    while (!this.closed) {
      try {
        const res = await this.request('GET', { accept: 'text/event-stream' });
        if (res.statusCode !== 200) return void res.resume();
        await new Promise<void>((resolve) => {
          this.readEvents(res);
          res.once('close', resolve);
        });
      } catch {
        // The stream failed (the upstream restarted, a network error): asked for again below.
      }
      await new Promise((resolve) => setTimeout(resolve, STREAM_RETRY_MS).unref());
    }
  }

  private deliver(value: unknown): void {
    for (const message of Array.isArray(value) ? value : [value]) this.onmessage?.(message as JSONRPCMessage);
  }

  /** Each `data:` of an event stream as a message (events without data, comments and ids are not messages). */
  private readEvents(res: http.IncomingMessage): void {
    let buffered = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      // Only the new text (and the three characters before it) can hold an event's end: a search of the whole
      // buffer per chunk made an event that never ended cost the square of its length.
      let from = Math.max(0, buffered.length - 3);
      buffered += chunk;
      let end: number;
      while ((end = eventEnd(buffered, from)) >= 0) {
        from = 0;
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + (buffered[end] === '\r' ? 4 : 2));
        const data = event
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(line[5] === ' ' ? 6 : 5))
          .join('\n');
        if (!data) continue;
        try {
          this.deliver(JSON.parse(data));
        } catch (error) {
          this.onerror?.(error as Error);
        }
      }
      if (buffered.length > MAX_UPSTREAM_MESSAGE_CHARS) {
        res.destroy();
        this.onerror?.(tooLarge());
      }
    });
    res.on('error', (error) => this.onerror?.(error));
  }

  /**
   * One request. A kept-alive connection the upstream closed as it was reused fails before any
   * answer (ECONNRESET on a reused socket: the upstream never read the request); such a request
   * is sent once more on a new connection, as Node's documentation of `reusedSocket` advises.
   */
  private async request(method: string, extra: Record<string, string>, body?: string, retried = false): Promise<http.IncomingMessage> {
    if (this.closed) throw new Error('the upstream connection is closed');
    const headers: Record<string, string> = {
      accept: 'application/json, text/event-stream',
      ...(await this.headers()),
      ...extra,
      ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}),
      ...(this.protocolVersion ? { 'mcp-protocol-version': this.protocolVersion } : {}),
    };
    const client = this.url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = client.request(this.url, { method, headers, agent: AGENTS[this.url.protocol as 'http:' | 'https:'] });
      this.open.add(req);
      req.once('close', () => this.open.delete(req));
      req.once('response', resolve);
      req.once('error', (error: NodeJS.ErrnoException) => {
        if (req.reusedSocket && error.code === 'ECONNRESET' && !retried) resolve(this.request(method, extra, body, true));
        else reject(error);
      });
      req.end(body);
    });
  }
}

/** Where the first event of `text` ends (a blank line), searching from `from`; -1 while none has. */
function eventEnd(text: string, from: number): number {
  const at = text.slice(from).search(/\r?\n\r?\n/);
  return at < 0 ? -1 : from + at;
}

/** The answer's text, refused (the connection closed) past MAX_UPSTREAM_MESSAGE_CHARS. */
async function textOf(res: http.IncomingMessage): Promise<string> {
  res.setEncoding('utf8');
  let text = '';
  for await (const chunk of res) {
    text += chunk;
    if (text.length > MAX_UPSTREAM_MESSAGE_CHARS) {
      res.destroy();
      throw tooLarge();
    }
  }
  return text;
}
