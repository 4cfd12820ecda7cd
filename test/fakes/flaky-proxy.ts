import { readBody, sendJson, startHttpServer, type FakeHttpServer } from './fake-http.js';

export interface FlakyProxy extends FakeHttpServer {
  /** Requests seen, failed or forwarded. */
  requests: number;
}

/**
 * A proxy in front of a real shipgate that answers the first `failures` requests with `status`
 * (and `headers`), then forwards every request as it is: a load balancer during a deploy.
 */
export async function startFlakyProxy(
  target: string,
  failures: number,
  status = 503,
  headers: Record<string, string> = {},
): Promise<FlakyProxy> {
  const proxy = { requests: 0 } as FlakyProxy;
  const server = await startHttpServer(async (req, res) => {
    proxy.requests += 1;
    if (proxy.requests <= failures) return sendJson(res, status, { detail: `upstream unavailable (${proxy.requests})` }, headers);
    const body = req.method === 'GET' ? undefined : await readBody(req);
    const forwarded = Object.fromEntries(
      Object.entries(req.headers).filter(
        ([name, value]) => typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name),
      ),
    ) as Record<string, string>;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers: forwarded, body });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  return Object.assign(proxy, server);
}
