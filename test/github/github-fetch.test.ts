import { startHttpServer } from '../fakes/fake-http.js';
import { boundedGitHubFetch } from '../../app/github-fetch.js';

describe("GitHub's REST API through boundedGitHubFetch (app/github-fetch.ts)", () => {
  it('gives up on a GitHub that takes the connection and never answers, or stops sending its answer', async () => {
    const silent = await startHttpServer(async () => {});
    const stalled = await startHttpServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":');
    });
    try {
      for (const url of [silent.url, stalled.url]) {
        const started = performance.now();
        await expect(boundedGitHubFetch(300)(`${url}/app/installations`)).rejects.toMatchObject({ name: 'TimeoutError' });
        expect(performance.now() - started).toBeLessThan(2_000);
      }
    } finally {
      await silent.close();
      await stalled.close();
    }
  });

  it('refuses an answer past its size, declared or streamed, without reading it all', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const endless = await startHttpServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const more = () => {
        while (res.write(chunk));
      };
      res.on('drain', more);
      more();
    });
    const declared = await startHttpServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 * 1024 * 1024) });
      res.write('{');
    });
    try {
      for (const url of [endless.url, declared.url])
        await expect(boundedGitHubFetch(5_000, 1024 * 1024)(`${url}/repos/acme/shop/compare/a...b`)).rejects.toThrow(
          "GitHub's answer is larger than the 1 MiB shipgate reads.",
        );
    } finally {
      await endless.close();
      await declared.close();
    }
  });

  it('hands an answer within its bounds on as GitHub gave it: status, headers, body, URL; a 204 with none', async () => {
    const github = await startHttpServer(async (req, res) => {
      if (req.url === '/gone') return void res.writeHead(204).end();
      res.writeHead(201, { 'content-type': 'application/json', 'x-ratelimit-remaining': '41' }).end('{"id":7}');
    });
    try {
      const fetch = boundedGitHubFetch(5_000, 1024);
      const created = await fetch(`${github.url}/repos/acme/shop/check-runs`, { method: 'POST', body: '{}' });
      expect([created.status, created.headers.get('x-ratelimit-remaining'), await created.json(), created.url]).toEqual([
        201,
        '41',
        { id: 7 },
        `${github.url}/repos/acme/shop/check-runs`,
      ]);
      expect((await fetch(`${github.url}/gone`)).status).toBe(204);
    } finally {
      await github.close();
    }
  });
});
