import type Koa from 'koa';
import { ValidationError } from '../../core/errors.js';
import { holdsNonFiniteNumber, MAX_RECORDED_DEPTH } from '../../core/json-value-holds.js';

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
  return error instanceof BodyError || error instanceof BodyShapeError;
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
export const MAX_JSON_DEPTH = MAX_RECORDED_DEPTH;

/** A body refused for its shape: a 422 in the API's validation shape (`loc` `["body"]`), and a refusal readMcpPost answers in JSON-RPC. */
class BodyShapeError extends ValidationError {
  readonly status = 422;
  constructor(msg: string, type: string) {
    super([{ loc: ['body'], msg, type }]);
  }
}

/** What a body's value shows beyond JSON's grammar that shipgate refuses (JsonBodyParser's answer, past a thread's boundary). */
export type JsonBodyProblem = 'too_deep' | 'not_finite';

const refusalOf = (problem: JsonBodyProblem) =>
  problem === 'too_deep'
    ? new BodyShapeError(`The JSON body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`, 'too_deep')
    : // JSON.parse reads a number past the double range (1e400) as Infinity, which JSON.stringify writes as null and
      // canonical JSON refuses: a hook's tool response holding one was a 500. Nothing is recorded other than as sent.
      new BodyShapeError('The JSON body holds a number beyond the double range (such as 1e400).', 'number_out_of_range');

/**
 * Whether the escape whose backslash is at `i` is `\u0000` or a UTF-16 surrogate's (`\uD800` to `\uDFFF`). Only an
 * escape puts a NUL or a lone surrogate in a parsed string: JSON.parse refuses a raw NUL, and UTF-8 decoding turns
 * a surrogate's bytes into U+FFFD. A surrogate pair written as escapes counts too: it is only looked for then.
 */
function nulOrSurrogateEscape(bytes: Uint8Array, i: number): boolean {
  if (bytes[i + 1] !== 0x75) return false;
  // `| 0x20` lower-cases a hex letter and leaves a digit as it is.
  const a = bytes[i + 2] | 0x20;
  const b = bytes[i + 3] | 0x20;
  if (a === 0x64) return (b >= 0x38 && b <= 0x39) || (b >= 0x61 && b <= 0x66);
  return a === 0x30 && b === 0x30 && bytes[i + 4] === 0x30 && bytes[i + 5] === 0x30;
}

/**
 * What JSON text shows outside its strings, in one pass over its bytes: nesting past MAX_JSON_DEPTH, and whether a
 * number may be past the double range (an exponent, or a run of 309 digits), which only then is looked for in the
 * value; and of its strings, whether one may hold text PostgreSQL cannot store (nulOrSurrogateEscape).
 */
function scanJson(bytes: Uint8Array): { tooDeep: boolean; bigNumber: boolean; maybeUnstorable: boolean } {
  let depth = 0;
  let inString = false;
  let digits = 0;
  let bigNumber = false;
  let maybeUnstorable = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === 0x5c) {
        if (!maybeUnstorable) maybeUnstorable = nulOrSurrogateEscape(bytes, i);
        i++;
      } else if (b === 0x22) inString = false;
      continue;
    }
    digits = b >= 0x30 && b <= 0x39 ? digits + 1 : 0;
    if (digits > 308) bigNumber = true;
    else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return { tooDeep: true, bigNumber, maybeUnstorable };
    } else if (b === 0x5d || b === 0x7d) depth--;
    // An exponent: `e` followed by a sign or a digit (in `true` and `false` it is followed by a delimiter).
    else if (
      (b === 0x65 || b === 0x45) &&
      i + 1 < bytes.length &&
      (bytes[i + 1] === 0x2b || bytes[i + 1] === 0x2d || (bytes[i + 1] >= 0x30 && bytes[i + 1] <= 0x39))
    )
      bigNumber = true;
  }
  return { tooDeep: false, bigNumber, maybeUnstorable };
}

/**
 * A JSON body as read: its value, and whether a string of it may hold text PostgreSQL cannot store (a NUL, a lone
 * surrogate), found in the pass over its bytes that finds its depth: only then need a caller that records the body
 * as sent look for such text (the hook endpoint: api/hooks/hook-event-of.ts).
 */
export interface JsonBodyRead {
  value: unknown;
  maybeUnstorable: boolean;
}

/** What a parsed JSON body shows: what refuses it (nesting past MAX_JSON_DEPTH first: nothing recurses into it), else whether it may hold unstorable text. */
export function jsonBodyFacts(bytes: Uint8Array, value: unknown): { problem: JsonBodyProblem } | { maybeUnstorable: boolean } {
  const { tooDeep, bigNumber, maybeUnstorable } = scanJson(bytes);
  if (tooDeep) return { problem: 'too_deep' };
  return bigNumber && holdsNonFiniteNumber(value) ? { problem: 'not_finite' } : { maybeUnstorable };
}

function parseJson(chunks: Buffer[]): JsonBodyRead {
  const bytes = Buffer.concat(chunks);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw malformed();
  }
  const facts = jsonBodyFacts(bytes, value);
  if ('problem' in facts) throw refusalOf(facts.problem);
  return { value, ...facts };
}

/**
 * Parses a JSON body's bytes elsewhere (a parse thread: server/thread-pool-evidence-parser.ts); resolves to
 * what it read, or `{malformed: true}` for bytes that are not JSON.
 */
export type JsonBodyParser = (bytes: Buffer) => Promise<JsonBodyRead | { malformed: true } | { problem: JsonBodyProblem }>;

/**
 * Reads the request's JSON body, or undefined when there is none: 413 over `limit` (1 MiB unless
 * the route raises it), 415 for any other media type or a compressed body, 400 for malformed JSON, 422 for JSON nested deeper than
 * MAX_JSON_DEPTH or holding a number past the double range. Only routes that take a body call it.
 * A body over MAX_BODY_BYTES (an evidence document's, up to 16 MiB) is parsed by `parseLarge`, off the event loop:
 * joining, decoding and parsing one held the loop for tens of milliseconds (docs/operations.md, "Security").
 */
export async function readJsonBody(ctx: Koa.Context, limit = MAX_BODY_BYTES, parseLarge?: JsonBodyParser): Promise<unknown> {
  return (await readScannedJsonBody(ctx, limit, parseLarge))?.value;
}

/** readJsonBody, answering the value with what the pass over its bytes found (JsonBodyRead). */
export async function readScannedJsonBody(
  ctx: Koa.Context,
  limit = MAX_BODY_BYTES,
  parseLarge?: JsonBodyParser,
): Promise<JsonBodyRead | undefined> {
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limit) throw tooLarge(limit);
  const { chunks, size } = await readLimited(ctx.req, limit);
  if (size === 0) return undefined;
  if (!isJson(ctx.request.type)) throw new BodyError(415, 'Request body must be application/json.');
  // Compressed bytes read as JSON are "malformed" (400), which says nothing of why.
  const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity')
    throw new BodyError(415, `Content-Encoding '${encoding.slice(0, 40)}' is not accepted: send the JSON body uncompressed.`);
  if (size <= MAX_BODY_BYTES || !parseLarge) return parseJson(chunks);
  const parsed = await parseLarge(Buffer.concat(chunks, size));
  if ('malformed' in parsed) throw malformed();
  if ('problem' in parsed) throw refusalOf(parsed.problem);
  return parsed;
}
