import autocannon from 'autocannon';

export interface LoadTarget {
  name: string;
  /** The path of each request (varied per request, e.g. a random commit). */
  path(): string;
  headers?: Record<string, string>;
  /** GET unless told otherwise; a POST sends `body` (the same bytes each time). */
  method?: 'GET' | 'POST';
  body?: string;
  /** Headers that differ per request (e.g. a webhook's delivery id). */
  requestHeaders?: () => Record<string, string>;
}

export interface LoadResult {
  name: string;
  requests: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non2xx: number;
}

export const CONNECTIONS = 32;
export const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 10);

/** Drives `target` with autocannon at 32 connections for `seconds`. */
export async function load(baseUrl: string, target: LoadTarget, seconds = DURATION_SECONDS): Promise<LoadResult> {
  const result = await autocannon({
    url: baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    headers: target.headers,
    requests: [
      {
        method: target.method ?? 'GET',
        body: target.body,
        setupRequest: (req) => ({
          ...req,
          path: target.path(),
          headers: target.requestHeaders ? { ...req.headers, ...target.requestHeaders() } : req.headers,
        }),
      },
    ],
  });
  return {
    name: target.name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
