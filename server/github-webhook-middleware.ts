import type Koa from 'koa';
import { z } from 'zod';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import type { RawBodyRoute } from '../api/create-server.js';
import { errorResponse } from '../api/openapi-document.js';
import { githubWebhookAckSchema, githubWebhookPayloadSchema } from '../api/schemas/github-webhook-schemas.js';
import type { RawDelivery, DeliveryAnswer } from '../app/receive-delivery.js';

export const WEBHOOK_PATH = '/api/v1/releases/github-webhook';

/** GitHub caps webhook payloads at 25 MB. */
const MAX_PAYLOAD_BYTES = 25 * 1024 * 1024;

class PayloadTooLarge extends Error {}

async function readRawBody(req: Koa.Context['req']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) throw new PayloadTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * POST /api/v1/releases/github-webhook, mounted by createServer before any body parser: the raw
 * bytes go to the App's receiver (the signature covers them exactly as sent).
 */
export function githubWebhookMiddleware(receive: (delivery: RawDelivery) => Promise<DeliveryAnswer>): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== WEBHOOK_PATH) return next();
    if (ctx.method !== 'POST') {
      ctx.status = 405;
      ctx.set('Allow', 'POST');
      ctx.body = { detail: 'Method not allowed: GitHub POSTs deliveries.' };
      return;
    }
    let rawBody: string;
    try {
      rawBody = await readRawBody(ctx.req);
    } catch (error) {
      if (!(error instanceof PayloadTooLarge)) throw error;
      ctx.status = 413;
      ctx.body = { detail: 'The payload exceeds 25 MB, GitHub’s own limit.' };
      return;
    }
    const answer = await receive({ rawBody, headers: ctx.req.headers });
    ctx.status = answer.status;
    ctx.body = answer.body;
  };
}

/**
 * What the middleware above and the receiver (app/receive-delivery.ts) answer, and nothing else:
 * no API key, so no 401/403 for keys and no rate limit; the error middleware it runs inside adds
 * 422 (a delivery the database cannot store), 500 and 503 (no webhook secret known yet, or no database).
 */
const webhookOperation: ZodOpenApiOperationObject = {
  summary: 'GitHub App webhook (signed deliveries from GitHub)',
  description:
    'Headers `X-GitHub-Event`, `X-GitHub-Delivery` and `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with the webhook secret: ' +
    'WEBHOOK_SECRET, or that of the App registered from the studio). In every NODE_ENV a known secret is always checked (401), and ' +
    'while none is known every delivery is refused (503); only SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS=true (local experiments) takes them ' +
    'unsigned meanwhile, each logged as such (`webhook_deliveries` on `/readyz` and `GET /github/app` says which). ' +
    'Each delivery id is claimed once: a redelivery answers `duplicate` and has no effect. The work (recording check runs, ' +
    'evaluating, posting the check run and comment) runs in queued jobs; the answer comes at once.',
  tags: ['releases'],
  operationId: 'postReleasesGithubWebhook',
  security: [],
  requestParams: {
    header: z.object({
      'X-GitHub-Event': z.string().max(100).meta({ description: 'The event, e.g. `pull_request`.' }),
      'X-GitHub-Delivery': z.string().max(200).meta({ description: 'The delivery id; each is claimed once.' }),
      'X-Hub-Signature-256': z
        .string()
        .optional()
        .meta({ description: '`sha256=` and the HMAC-SHA256 of the raw body with the webhook secret; required whenever one is known.' }),
    }),
  },
  requestBody: {
    required: true,
    content: {
      'application/json': { schema: githubWebhookPayloadSchema },
      'application/x-www-form-urlencoded': {
        schema: z.object({ payload: z.string().meta({ description: 'The JSON payload, for a webhook configured as form-encoded.' }) }),
      },
    },
  },
  responses: {
    202: {
      description: 'Accepted: queued, ignored (with the reason) or duplicate.',
      content: { 'application/json': { schema: githubWebhookAckSchema } },
    },
    400: errorResponse(400, 'Missing X-GitHub-Event or X-GitHub-Delivery, or a payload that is not JSON.'),
    401: errorResponse(401, 'Missing or invalid X-Hub-Signature-256 (a webhook secret is known); nothing is recorded.'),
    413: errorResponse(413, 'Payload over 25 MB, GitHub’s own limit.'),
    415: errorResponse(415, 'Content-Type is neither application/json nor application/x-www-form-urlencoded.'),
    422: errorResponse(422, 'A payload the database cannot store (a NUL character, say); nothing is recorded.'),
    500: errorResponse(500),
    503: errorResponse(
      503,
      'No webhook secret is known yet (neither WEBHOOK_SECRET nor a registered App) and SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS is not true; nothing is recorded. Also: the database is unreachable.',
    ),
  },
};

/** The webhook as createServer mounts it: the middleware, and its entry in /openapi.json. */
export function githubWebhookRoute(receive: (delivery: RawDelivery) => Promise<DeliveryAnswer>): RawBodyRoute {
  return { middleware: githubWebhookMiddleware(receive), openapi: { [WEBHOOK_PATH]: { post: webhookOperation } } };
}
