import http from 'node:http';

export interface RoundRobinProxy {
  url: string;
  /** Which target (its index) each request went to, in the order they came. */
  served: number[];
  close(): Promise<void>;
}

/**
 * An HTTP reverse proxy that sends each request to the next of `targets` in turn, with no
 * stickiness of any kind (no session affinity): as a
 * load balancer spreading an agent's requests over replicas does at worst. Connections to the
 * targets are kept alive and reused by any request: a target is chosen per request, not per connection.
 */
export async function startRoundRobinProxy(targets: string[], port = 0): Promise<RoundRobinProxy> {
  const served: number[] = [];
  const agent = new http.Agent({ keepAlive: true });
  let next = 0;
  /** Forwards a request's bytes; once more on a new connection when a kept-alive one was closed as it was reused. */
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, target: URL, body: Buffer, retried = false) => {
    const forwarded = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host }, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', (error: NodeJS.ErrnoException) => {
      if (forwarded.reusedSocket && error.code === 'ECONNRESET' && !retried) return forward(req, res, target, body, true);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: `proxy: ${error.message}` }));
    });
    forwarded.end(body);
  };
  const server = http.createServer(async (req, res) => {
    const index = next++ % targets.length;
    served.push(index);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    forward(req, res, new URL(req.url ?? '/', targets[index]), Buffer.concat(chunks));
  });
  // Clients' idle connections stay open longer than they keep them (undici: 4 s), so the proxy never closes one a client is reusing.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${bound}`,
    served,
    async close() {
      server.closeAllConnections();
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
