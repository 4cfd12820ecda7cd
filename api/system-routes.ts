import fs from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import swaggerUi from 'swagger-ui-dist';
import { webhookSignatures, type WebhookSignatures } from '../core/github/webhook-signatures.js';
import type { Deps } from './deps.js';
import type { OpenApiDocument } from './openapi-document.js';
import { setPageSecurityHeaders } from './page-security-headers.js';

const SWAGGER_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png']);
const TYPES: Record<string, string> = { '.css': 'text/css', '.js': 'application/javascript', '.png': 'image/png' };

const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>shipgate API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"><link rel="icon" href="/docs/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-init.js"></script></body></html>`;

// validatorUrl: null, or Swagger UI loads a badge image from validator.swagger.io.
const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null });`;

/**
 * The API docs page's CSP: Swagger UI from this origin only, its initializer a file (no inline
 * script), no inline style; `img-src data:` for the icons its stylesheet embeds; `connect-src
 * 'self'` for /openapi.json and "Try it out". No other site may frame it (docs/operations.md,
 * "Security").
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * How the webhook treats deliveries now, for /readyz (docs/operations.md, "Security"): an operator
 * (or a monitor) sees at once that deliveries are accepted unsigned. App credentials that cannot be
 * read (a sealed secret this replica cannot open) leave deliveries refused with 503, and say so.
 */
async function webhookDeliveries(deps: Deps): Promise<WebhookSignatures['deliveries']> {
  try {
    return webhookSignatures(await deps.appCredentials.current(), deps.config.github).deliveries;
  } catch {
    return 'refused';
  }
}

/** Root-level routes that need no key: health, readiness, metrics, the API description and its UI. */
export function systemRoutes(deps: Deps, document: OpenApiDocument): Router {
  const router = new Router();
  const swaggerDir = swaggerUi.getAbsoluteFSPath();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    if (!(await deps.readiness.migrationsApplied())) {
      ctx.status = 503;
      ctx.body = { detail: 'Migrations pending.' };
      return;
    }
    ctx.body = { status: 'ready', webhook_deliveries: await webhookDeliveries(deps) };
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = deps.metrics.contentType;
    ctx.body = await deps.metrics.metrics();
  });
  router.get('/openapi.json', (ctx) => {
    ctx.body = document;
  });
  router.get('/docs', (ctx) => {
    setPageSecurityHeaders(ctx, DOCS_CSP);
    ctx.type = 'text/html';
    ctx.body = DOCS_HTML;
  });
  router.get('/docs/swagger-init.js', (ctx) => {
    setPageSecurityHeaders(ctx, DOCS_CSP);
    ctx.type = 'application/javascript';
    ctx.body = DOCS_INIT;
  });
  router.get('/docs/:file', (ctx) => {
    const file = ctx.params.file;
    if (!SWAGGER_FILES.has(file)) return;
    setPageSecurityHeaders(ctx, DOCS_CSP);
    ctx.type = TYPES[path.extname(file)];
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = fs.createReadStream(path.join(swaggerDir, file));
  });
  return router;
}
