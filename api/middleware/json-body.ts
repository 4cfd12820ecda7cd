import type Koa from 'koa';
import { ValidationError } from '../../core/errors.js';

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

/** Whether `error` is readJsonBody's refusal of a body (413, 415, 400, 422), for a caller that answers it in a protocol of its own (its `status` and `message`). */
export function isBodyRefusal(error: unknown): boolean {
  return error instanceof BodyError || error instanceof TooDeepError;
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

const malformed = () => new BodyError(400, 'Malformed JSON body.');

/**
 * How deeply a body's arrays and objects may nest. Deeper, the recursive work done on a value
 * (canonical JSON, the database driver's serialisation) ran out of stack: a hook input 5,000
 * levels deep was a 500 (docs/operations.md, "Security").
 */
export const MAX_JSON_DEPTH = 100;

/** A body nested past MAX_JSON_DEPTH: a 422 in the API's validation shape (`loc` `["body"]`), and a refusal readMcpPost answers in JSON-RPC. */
class TooDeepError extends ValidationError {
  readonly status = 422;
  constructor() {
    super([{ loc: ['body'], msg: `The JSON body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`, type: 'too_deep' }]);
  }
}

const tooDeep = () => new TooDeepError();

/** Whether JSON text nests arrays and objects deeper than MAX_JSON_DEPTH (what strings hold skipped), in one pass over its bytes. */
export function nestsTooDeep(bytes: Uint8Array): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return false;
}

function parseJson(chunks: Buffer[]): unknown {
  const bytes = Buffer.concat(chunks);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw malformed();
  }
  if (nestsTooDeep(bytes)) throw tooDeep();
  return value;
}

/**
 * Parses a JSON body's bytes elsewhere (a parse thread: server/thread-pool-evidence-parser.ts); resolves to
 * `{value}`, or `{malformed: true}` for bytes that are not JSON.
 */
export type JsonBodyParser = (bytes: Buffer) => Promise<{ value: unknown } | { malformed: true } | { tooDeep: true }>;

/**
 * Reads the request's JSON body, or undefined when there is none: 413 over `limit` (1 MiB unless
 * the route raises it), 415 for any other media type, 400 for malformed JSON, 422 for JSON nested deeper than
 * MAX_JSON_DEPTH. Only routes that take a body call it.
 * A body over MAX_BODY_BYTES (an evidence document's, up to 16 MiB) is parsed by `parseLarge`, off the event loop:
 * joining, decoding and parsing one held the loop for tens of milliseconds (docs/operations.md, "Security").
 */
export async function readJsonBody(ctx: Koa.Context, limit = MAX_BODY_BYTES, parseLarge?: JsonBodyParser): Promise<unknown> {
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limit) throw tooLarge(limit);
  const { chunks, size } = await readLimited(ctx.req, limit);
  if (size === 0) return undefined;
  if (!isJson(ctx.request.type)) throw new BodyError(415, 'Request body must be application/json.');
  if (size <= MAX_BODY_BYTES || !parseLarge) return parseJson(chunks);
  const parsed = await parseLarge(Buffer.concat(chunks, size));
  if ('malformed' in parsed) throw malformed();
  if ('tooDeep' in parsed) throw tooDeep();
  return parsed.value;
}
