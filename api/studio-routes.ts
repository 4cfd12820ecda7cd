import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import type Koa from 'koa';
import { setPageSecurityHeaders } from './page-security-headers.js';

/** The studio's static files, in the repository beside api/. */
export const STUDIO_DIR = fileURLToPath(new URL('../studio/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Only this origin, and no inline script or style: untrusted text that slipped into markup could
 * still not run. `img-src 'self'` admits the badge preview (served by the API). Forms may post
 * only to `formActions`: GitHub's web origin, where the GitHub page posts the App's manifest
 * (docs/github-app.md, "Register the App from the studio").
 */
export function studioCsp(formActions: string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    formActions.length ? `form-action ${formActions.join(' ')}` : "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

interface StudioFile {
  body: Buffer;
  type: string;
  etag: string;
}

/** Every servable file under `dir` by its path relative to it ('' is index.html); read once. */
function readStudioFiles(dir: string): Map<string, StudioFile> {
  const files = new Map<string, StudioFile>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const type = TYPES[path.extname(entry.name)];
    if (!entry.isFile() || !type) continue;
    const full = path.join(entry.parentPath, entry.name);
    const body = fs.readFileSync(full);
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
    files.set(path.relative(dir, full).split(path.sep).join('/'), { body, type, etag });
  }
  const index = files.get('index.html');
  if (index) files.set('', index);
  return files;
}

function serve(ctx: Koa.Context, file: StudioFile, csp: string): void {
  setPageSecurityHeaders(ctx, csp);
  // Revalidate every time: a new release's files are picked up at once, unchanged ones answer 304.
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('ETag', file.etag);
  const ifNoneMatch = ctx.get('If-None-Match');
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.type = file.type;
  ctx.body = file.body;
}

/**
 * `/studio`: the web studio's HTML, CSS and JavaScript modules, straight from studio/ (no build
 * step). Only files present when the server started are served; anything else is a JSON 404.
 */
export function studioRoutes(dir = STUDIO_DIR, formActions: string[] = []): Router {
  const csp = studioCsp(formActions);
  const files = fs.existsSync(dir) ? readStudioFiles(dir) : new Map<string, StudioFile>();
  const router = new Router();
  const answer = (name: string) => (ctx: Koa.Context) => {
    const file = files.get(name);
    if (!file) {
      ctx.status = 404;
      ctx.body = { detail: 'Not found.' };
      return;
    }
    serve(ctx, file, csp);
  };
  router.get('/studio', answer(''));
  router.get('/studio/{*file}', (ctx) => answer(ctx.params.file ?? '')(ctx));
  return router;
}
