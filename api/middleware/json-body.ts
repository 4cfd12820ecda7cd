import { setImmediate } from 'node:timers/promises';
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

/** The body's chunks, refused with 413 as soon as they add up to more than `limit`. */
async function readLimited(req: Koa.Request['req'], limit: number): Promise<{ chunks: Buffer[]; size: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return { chunks, size };
}

function parseJson(chunks: Buffer[]): unknown {
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BodyError(400, 'Malformed JSON body.');
  }
}

let largeBodies: Promise<unknown> = Promise.resolve();

/**
 * Parses a body over MAX_BODY_BYTES (an evidence document's, up to 16 MiB: tens of milliseconds of joining, decoding,
 * parsing and then validating it) once the large bodies before it are parsed, each on a turn of the event loop of its
 * own: ten such uploads arriving together hold the loop for one body at a time, never for all ten at once, so
 * /healthz and every other request are served between them (docs/operations.md, "Security").
 */
function parseInTurn(chunks: Buffer[]): Promise<unknown> {
  const parsed = largeBodies.then(() => setImmediate()).then(() => parseJson(chunks));
  largeBodies = parsed.catch(() => undefined);
  return parsed;
}

/**
 * Reads the request's JSON body, or undefined when there is none: 413 over `limit` (1 MiB unless
 * the route raises it), 415 for any other media type, 400 for malformed JSON. Only routes that take a body call it.
 */
export async function readJsonBody(ctx: Koa.Context, limit = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limit) throw tooLarge(limit);
  const { chunks, size } = await readLimited(ctx.req, limit);
  if (size === 0) return undefined;
  if (!isJson(ctx.request.type)) throw new BodyError(415, 'Request body must be application/json.');
  return size > MAX_BODY_BYTES ? parseInTurn(chunks) : parseJson(chunks);
}
