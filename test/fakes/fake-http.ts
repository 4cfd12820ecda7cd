import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface FakeHttpServer {
  /** http://127.0.0.1:PORT, no trailing slash. */
  url: string;
  /** 127.0.0.1:PORT, e.g. for GHE_HOST. */
  host: string;
  close(): Promise<void>;
}

/** A real HTTP server on a free loopback port; a handler that throws answers 500 with the reason. */
export async function startHttpServer(handle: RequestHandler): Promise<FakeHttpServer> {
  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { message: `fake server failed: ${String(error)}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        // SDK clients keep connections alive; close them or close() waits for their idle timeout.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The body parsed as JSON, `undefined` for an empty body, or an Error for malformed JSON. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req);
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    return error as Error;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

export function sendText(res: ServerResponse, status: number, text: string, contentType = 'text/plain; charset=utf-8'): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { 'content-type': contentType });
  res.end(text);
}

/** Calls `onAbort` when the client closes the connection before the response was sent. */
export function onClientAbort(res: ServerResponse, onAbort: () => void): void {
  res.on('close', () => {
    if (!res.writableFinished) onAbort();
  });
}

/** Waits `ms`, or less when the client goes away first (no point answering a closed socket). */
export function waitUnlessClosed(res: ServerResponse, ms: number): Promise<void> {
  if (ms <= 0 || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    res.once('close', done);
    function done() {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    }
  });
}
