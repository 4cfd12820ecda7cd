/** A fetch function (the global one, or one wrapped around it). */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface FetchBounds {
  /** How long one exchange may take, its answer read whole included. */
  timeoutMs: number;
  /** The largest answer read. */
  maxBytes: number;
  /** Who answers, for the refusal: "GitHub", "The provider". */
  what: string;
  /** The longest wait a `Retry-After` (or `retry-after-ms`) may ask of the client that reads it; longer asks are cut to it. */
  maxRetryAfterSeconds?: number;
}

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** The body's bytes, refused as soon as they add up to more than `maxBytes`. */
async function readBounded(response: Response, { maxBytes, what }: FetchBounds): Promise<Uint8Array> {
  const tooLarge = () => new Error(`${what}'s answer is larger than the ${maxBytes / 1024 / 1024} MiB shipgate reads.`);
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * The answer's headers with a wait asked for cut to `maxSeconds`: the SDKs that read them sleep
 * for whatever a remote asks (a `Retry-After` of 999999 held a job slot for 27 hours, past a cancel).
 */
function boundedWait(headers: Headers, maxSeconds: number): Headers {
  const bounded = new Headers(headers);
  const ms = Number(bounded.get('retry-after-ms'));
  if (bounded.has('retry-after-ms') && !(ms <= maxSeconds * 1000)) bounded.delete('retry-after-ms');
  const after = bounded.get('retry-after');
  if (after !== null) {
    const seconds = /^\s*\d+(\.\d+)?\s*$/.test(after) ? Number(after) : (Date.parse(after) - Date.now()) / 1000;
    if (!(seconds <= maxSeconds)) bounded.set('retry-after', String(maxSeconds));
  }
  return bounded;
}

/**
 * `fetchImpl` within bounds (docs/operations.md, "Remote answers"): the exchange, answer read whole,
 * within `timeoutMs` or it throws a TimeoutError; an answer over `maxBytes` throws; a wait the
 * answer asks for is cut to `maxRetryAfterSeconds`. A remote that takes the connection and never
 * answers, or trickles its answer forever, or sends 300 MB, held a job slot without end.
 */
export function boundedFetch(fetchImpl: Fetch, bounds: FetchBounds): Fetch {
  return async (input, init = {}) => {
    const timeout = AbortSignal.timeout(bounds.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await fetchImpl(input, { ...init, signal });
    const body = NULL_BODY_STATUSES.has(response.status) ? null : await readBounded(response, bounds);
    const headers =
      bounds.maxRetryAfterSeconds === undefined ? response.headers : boundedWait(response.headers, bounds.maxRetryAfterSeconds);
    const bounded = new Response(body, { status: response.status, statusText: response.statusText, headers });
    // Clients report the URL an answer came from (after redirects).
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}
