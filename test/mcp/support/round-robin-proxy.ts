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
  const server = http.createServer((req, res) => {
    const index = next++ % targets.length;
    served.push(index);
    const target = new URL(req.url ?? '/', targets[index]);
    const forwarded = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host }, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: `proxy: ${error.message}` }));
    });
    req.pipe(forwarded);
  });
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
