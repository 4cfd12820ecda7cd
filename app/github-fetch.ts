/**
 * How long one exchange with GitHub's REST API may take, its answer read whole included: a GitHub
 * that accepts the connection and never answers held a job slot (and an API request waiting on it)
 * for five minutes, and four such calls stopped every job (docs/github-app.md, "When GitHub is
 * down"). Sign-in and App registration use the same bound on their own fetches.
 */
export const GITHUB_REQUEST_TIMEOUT_MS = 20_000;

/**
 * The largest answer read from GitHub's REST API. The largest shipgate asks for (a comparison of
 * 300 files with their patches, a page of 100 changed files, a 1 MB file's raw text) are a few
 * MiB; a 300 MB answer crashed the job worker and was logged whole.
 */
export const GITHUB_ANSWER_MAX_BYTES = 32 * 1024 * 1024;

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** The body's bytes, refused as soon as they add up to more than `maxBytes`. */
async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new Error(`GitHub's answer is larger than the ${maxBytes / 1024 / 1024} MiB shipgate reads.`);
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
 * The fetch octokit sends shipgate's GitHub requests with (app/create-probot.ts): within `timeoutMs`
 * (answer read whole) and `maxBytes`, or it throws, which octokit reports as a request that got no
 * answer (app/github-errors.ts).
 */
export function boundedGitHubFetch(
  timeoutMs = GITHUB_REQUEST_TIMEOUT_MS,
  maxBytes = GITHUB_ANSWER_MAX_BYTES,
): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init = {}) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await fetch(input, { ...init, signal });
    const body = NULL_BODY_STATUSES.has(response.status) ? null : await readBounded(response, maxBytes);
    const bounded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // Octokit reports the URL an answer came from (after redirects).
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}
