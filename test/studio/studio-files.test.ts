import fs from 'node:fs';
import path from 'node:path';
import { STUDIO_DIR } from '../../api/studio-routes.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function studioFiles(dir = STUDIO_DIR): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('/studio', () => {
  it('serves the page with a strict CSP, nosniff and an ETag that answers 304', async () => {
    const page = await t.request.get('/studio');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.text).toContain('<script type="module" src="/studio/js/main.js"></script>');

    const again = await t.request.get('/studio/').set('If-None-Match', page.headers.etag);
    expect(again.status).toBe(304);
    const module = await t.request.get('/studio/js/main.js');
    expect(module.status).toBe(200);
    expect(module.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(module.headers.etag).not.toBe(page.headers.etag);
  });

  it('answers a JSON 404 for anything that is not one of its files', async () => {
    for (const url of ['/studio/nope.js', '/studio/../package.json', '/studio/%2e%2e/package.json', '/studio/js']) {
      const res = await t.request.get(url);
      expect([url, res.status]).toEqual([url, 404]);
      if (res.status === 404 && res.type === 'application/json') expect(res.body).toEqual({ detail: 'Not found.' });
    }
  });

  it('has no inline script or handler, and names no other origin (no CDN, no remote fonts)', () => {
    for (const file of studioFiles()) {
      const text = fs.readFileSync(file, 'utf8');
      expect([file, /https?:\/\/(?!www\.w3\.org\/2000\/svg)/.test(text)]).toEqual([file, false]);
      expect([file, /\son[a-z]+=["']/i.test(text)]).toEqual([file, false]);
      expect([file, /innerHTML|outerHTML|insertAdjacentHTML|document\.write/.test(text)]).toEqual([file, false]);
    }
    const html = fs.readFileSync(path.join(STUDIO_DIR, 'index.html'), 'utf8');
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script type="module" src="/studio/js/main.js">']);
  });
});
