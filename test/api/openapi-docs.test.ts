import { spawnSync } from 'node:child_process';
import { allRoutes } from '../../api/all-routes.js';
import type { RouteDef } from '../../api/route.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

interface Operation {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, string>> };
}

const VALIDATE = `import SwaggerParser from '@apidevtools/swagger-parser';
let text = '';
for await (const chunk of process.stdin) text += chunk;
try { await SwaggerParser.validate(JSON.parse(text)); } catch (error) { console.error(error.message); process.exit(1); }`;

/** swagger-parser loads an ES module through require(), which jest cannot; plain Node can. */
function validateOpenApi(document: unknown): { valid: boolean; message: string } {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', VALIDATE], { input: JSON.stringify(document), encoding: 'utf8' });
  return { valid: run.status === 0, message: run.stderr };
}

let t: TestApp;
let doc: Document;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.request.get('/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(async () => {
  await t.close();
});

const routes = allRoutes.flat();
const name = (route: RouteDef) => `${route.method.toUpperCase()} ${route.path}`;

/** What docs/api.md, "HTTP conventions", says each kind of route can answer besides its successes. */
function expectedErrors(route: RouteDef): string[] {
  const statuses = [429, 500, 503, ...Object.keys(route.errors ?? {}).map(Number)];
  if (route.auth !== 'public') statuses.push(401, 403);
  if (route.body) statuses.push(400, 413, 415, 422);
  if (route.query || route.params) statuses.push(422);
  if (route.params) statuses.push(404);
  return [...new Set(statuses)].map(String);
}

function keysOf(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(validateOpenApi(doc)).toEqual({ valid: true, message: '' });
    const broken = { ...doc, paths: { ...doc.paths, '/api/v1/broken': { get: { responses: { 200: { content: 'nope' } } } } } };
    expect(validateOpenApi(broken).valid).toBe(false);
  });

  it('declares the bearer scheme (and X-API-Key)', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it.each(routes.map((route) => [name(route), route] as const))('describes %s with its inputs, successes and errors', (_, route) => {
    const operation = doc.paths[`/api/v1${route.path}`]?.[route.method];
    expect(operation).toBeDefined();
    const statuses = Object.keys(operation.responses);
    expect(statuses).toEqual(expect.arrayContaining(Object.keys(route.responses)));
    expect(statuses).toEqual(expect.arrayContaining(expectedErrors(route)));
    for (const status of expectedErrors(route)) {
      const ref = operation.responses[status].content?.['application/json']?.schema.$ref;
      expect(ref).toBe(status === '422' ? '#/components/schemas/ValidationError' : '#/components/schemas/Error');
    }
    if (route.auth === 'public') expect(operation.security).toEqual([]);
    else expect(operation.security).toEqual(expect.arrayContaining([{ bearer: [] }]));
    const parameters = (operation.parameters ?? []).map((p) => `${p.in}:${p.name}`);
    for (const key of keysOf(route.params)) expect(parameters).toContain(`path:${key}`);
    for (const key of keysOf(route.query)) expect(parameters).toContain(`query:${key}`);
    expect(operation.requestBody !== undefined).toBe(route.body !== undefined);
  });

  it('lists only operations the server actually serves', async () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        const res = await t.request[method as 'get'](url);
        expect([path, method, res.status]).not.toEqual([path, method, 405]);
        expect([path, method, res.body]).not.toEqual([path, method, { detail: 'Not found.' }]);
      }
    }
  });
});

describe('/docs', () => {
  it('serves Swagger UI from local files only', async () => {
    const page = await t.request.get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).not.toMatch(/https?:\/\//);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/docs\//);
      const res = await t.request.get(asset).buffer(true);
      expect([asset, res.status]).toEqual([asset, 200]);
      const text = res.body instanceof Buffer ? res.body.toString('utf8') : res.text;
      // No asset host of any kind; spec and namespace URIs inside the bundle are identifiers, not loads.
      expect(text).not.toMatch(/unpkg\.com|jsdelivr|cdnjs|googleapis|gstatic|cloudflare/);
      if (asset.endsWith('.css')) {
        for (const [, ref] of text.matchAll(/url\(\s*["']?([^"')]+)/g)) expect(ref).toMatch(/^data:/);
      }
    }
  });

  it('sends a CSP without inline script or style that no page may frame, with nosniff (browser: test/studio/api-docs-page)', async () => {
    for (const url of ['/docs', '/docs/swagger-init.js', '/docs/swagger-ui-bundle.js']) {
      const res = await t.request.get(url).buffer(true);
      const csp = res.headers['content-security-policy'];
      expect([url, csp]).toEqual([url, expect.stringContaining("frame-ancestors 'none'")]);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('points the UI at the local /openapi.json and turns off the remote validator badge', async () => {
    const page = await t.request.get('/docs');
    const scripts = [...page.text.matchAll(/src="([^"]+)"/g)].map((m) => m[1]).filter((s) => !s.endsWith('swagger-ui-bundle.js'));
    const init = (await Promise.all(scripts.map((s) => t.request.get(s).then((r) => r.text)))).join('\n');
    expect(init).toContain("url: '/openapi.json'");
    expect(init).toMatch(/validatorUrl:\s*null/);
    expect(init).not.toMatch(/https?:\/\//);
  });
});
