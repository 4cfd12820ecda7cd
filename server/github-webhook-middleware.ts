import type Koa from 'koa';
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
