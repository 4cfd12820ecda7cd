import type Koa from 'koa';

export const MAX_BODY_BYTES = 1024 * 1024;

class BodyError extends Error {
  readonly expose = true;
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function isJson(type: string): boolean {
  return /^application\/([a-z0-9.+-]*\+)?json$/i.test(type);
}

const tooLarge = (limit: number) => new BodyError(413, `Request body exceeds ${+(limit / 1024 / 1024).toFixed(2)} MiB.`);

async function readLimited(req: Koa.Request['req'], limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads the request's JSON body, or undefined when there is none: 413 over `limit` (1 MiB unless
 * the route raises it), 415 for any other media type, 400 for malformed JSON. Only routes that take a body call it.
 */
export async function readJsonBody(ctx: Koa.Context, limit = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limit) throw tooLarge(limit);
  const raw = await readLimited(ctx.req, limit);
  if (raw.length === 0) return undefined;
  if (!isJson(ctx.request.type)) throw new BodyError(415, 'Request body must be application/json.');
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BodyError(400, 'Malformed JSON body.');
  }
}
