import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyToolCall } from '../../core/agent/verify-tool-call.js';
import { call, finalAnswer, toolTurn } from '../support/scripted-provider.js';
import { agentHarness } from './support/agent-harness.js';
import { verifyContext } from './support/verify-context.js';

let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/big') return res.end('x'.repeat(2 * 1024 * 1024));
    if (req.url === '/to-localhost') return res.writeHead(302, { location: `http://localhost:${port}/page` }).end();
    if (req.url === '/hop') return res.writeHead(302, { location: '/page' }).end();
    res.setHeader('content-type', 'text/plain').end('hello from the mirror');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const context = (httpAllowlist: string[] = []) => verifyContext({}, { httpAllowlist });

async function verdictFor(url: string, allowlist: string[] = []): Promise<string> {
  const v = await verifyToolCall(call('1', 'http_get', { url }), context(allowlist));
  return v.verdict === 'denied' ? v.reason : 'allowed';
}

describe('http_get', () => {
  it.each([
    ['loopback', () => `http://127.0.0.1:${port}/`],
    ['a private network', () => 'http://10.1.2.3/'],
    ['link-local (cloud metadata)', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', () => `http://[::1]:${port}/`],
    ['a name resolving to loopback', () => `http://localhost:${port}/`],
    ['an IPv4-mapped IPv6 address', () => 'http://[::ffff:10.0.0.1]/'],
  ])('refuses %s as argument_rule:private_address', async (_what, url) => {
    expect(await verdictFor(url())).toBe('argument_rule:private_address');
  });

  it('refuses other schemes as invalid arguments', async () => {
    expect(await verdictFor('file:///etc/passwd')).toBe('invalid_arguments');
    expect(await verdictFor('ftp://example.com/x')).toBe('invalid_arguments');
  });

  it('allows an allowlisted host', async () => {
    expect(await verdictFor(`http://127.0.0.1:${port}/`, ['127.0.0.1'])).toBe('allowed');
    expect(await verdictFor(`http://[::1]:${port}/`, ['::1'])).toBe('allowed');
  });

  it('fetches from an allowlisted host in a run, following a redirect', async () => {
    const h = agentHarness([toolTurn([call('c1', 'http_get', { url: `http://127.0.0.1:${port}/hop` })]), finalAnswer('fetched')], {
      deps: { httpAllowlist: ['127.0.0.1'] },
    });
    await h.run();
    const [entry] = h.stored().execution.tool_calls;
    expect(entry).toMatchObject({ verdict: 'allowed', capability: 'network:http:get' });
    expect(entry.output).toBe(`HTTP 200 (text/plain) http://127.0.0.1:${port}/page\n\nhello from the mirror`);
  });

  it('refuses a redirect to a private host that is not allowlisted', async () => {
    const h = agentHarness([toolTurn([call('c1', 'http_get', { url: `http://127.0.0.1:${port}/to-localhost` })]), finalAnswer('x')], {
      deps: { httpAllowlist: ['127.0.0.1'] },
    });
    await h.run();
    expect(h.stored().execution.tool_calls[0].output).toMatch(/^ERROR: refused: localhost resolves to a private/);
  });

  it('cuts the body at 1 MiB; the entry keeps 4 KiB and the digest covers the whole output', async () => {
    const h = agentHarness([toolTurn([call('c1', 'http_get', { url: `http://127.0.0.1:${port}/big` })]), finalAnswer('x')], {
      deps: { httpAllowlist: ['127.0.0.1'] },
      execution: { budget_cents: 100_000 },
    });
    await h.run();
    const { execution, transcript } = h.stored();
    const [entry] = execution.tool_calls;
    expect(Buffer.byteLength(entry.output!)).toBe(4096);
    expect(entry.result_digest).toMatch(/^[0-9a-f]{64}$/);
    const answer = transcript.find((m) => m.role === 'tool')!;
    expect(Buffer.byteLength(answer.content)).toBe(32 * 1024);
    expect(h.provider.requests[1].messages.at(-1)).toEqual(answer);
  });
});
