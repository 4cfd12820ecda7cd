import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import Koa from 'koa';
import pino from 'pino';
import { errorHandler } from '../../api/middleware/error-handler.js';
import { readJsonBody } from '../../api/middleware/json-body.js';
import { answerClientError } from '../../server/answer-client-error.js';

/** A raw HTTP exchange: what the server wrote back before closing. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as { detail: string };

describe("requests Node refuses before shipgate's handler (server/answer-client-error.ts)", () => {
  const logged: string[] = [];
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    const logger = pino(new Writable({ write: (chunk, _enc, done) => (logged.push(String(chunk)), done()) }));
    const app = new Koa();
    app.use(errorHandler(logger));
    app.use(async (ctx) => {
      ctx.body = { got: await readJsonBody(ctx) };
    });
    // The server's settings as serve.ts sets them, but a request timeout a test can wait for.
    server = http.createServer({ requestTimeout: 300, connectionsCheckingInterval: 50 }, app.callback());
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers headers past 16 KiB with 431 {detail} (Node: an empty body)', async () => {
    const response = await exchange(port, `GET / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sg_${'a'.repeat(100_000)}\r\n\r\n`);
    expect(response).toMatch(/^HTTP\/1\.1 431 /);
    expect(response).toMatch(/\r\nContent-Type: application\/json\r\n/);
    expect(bodyOf(response).detail).toMatch(/headers exceed 16 KiB/);
  });

  it('answers what is no HTTP with 400 {detail}', async () => {
    const response = await exchange(port, 'GARBAGE\r\n\r\n');
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(response)).toEqual({ detail: 'Malformed HTTP request.' });
  });

  it('answers a body shorter than its Content-Length with 408 {detail} at the request timeout, logged as no server error', async () => {
    logged.length = 0;
    const response = await exchange(
      port,
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":"x"',
    );
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(response).detail).toMatch(/not received in full within/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logged.join('')).not.toMatch(/unhandled error/);
  });

  it('still serves a whole request', async () => {
    const response = await exchange(
      port,
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
    expect(bodyOf(response)).toEqual({ got: {} });
  });
});
