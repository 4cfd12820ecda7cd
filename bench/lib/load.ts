import autocannon from 'autocannon';

export interface LoadTarget {
  name: string;
  /** The path of each request (varied per request, e.g. a random commit). */
  path(): string;
  headers?: Record<string, string>;
  /** GET unless told otherwise; a POST sends `body` (the same bytes each time). */
  method?: 'GET' | 'POST';
  body?: string;
  /** What differs per request: headers (e.g. a webhook's delivery id), and a body replacing `body`. */
  perRequest?: () => { headers?: Record<string, string>; body?: string };
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
/** Seconds of load per endpoint in all, split over ROUNDS turns. */
export const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 12);
export const ROUNDS = 3;
/** Seconds of each turn of loadInTurns. */
export const TURN_SECONDS = Math.max(1, Math.round(DURATION_SECONDS / ROUNDS));

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
        setupRequest: (req) => {
          const varied = target.perRequest?.() ?? {};
          return { ...req, path: target.path(), headers: { ...req.headers, ...varied.headers }, body: varied.body ?? req.body };
        },
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Drives the targets in turns, ROUNDS times, DURATION_SECONDS / ROUNDS each turn, so a change in
 * the machine's load during the run hits every target alike (a floor measured only before and
 * after drifts with it). Per target: requests and errors summed, req/s over its whole time, p50
 * and p99 the median of its turns'.
 */
export async function loadInTurns(
  baseUrl: string,
  targets: LoadTarget[],
  /** Wraps each turn (e.g. to count what the server finished meanwhile). */
  turn: (target: LoadTarget, run: () => Promise<LoadResult>) => Promise<LoadResult> = (_, run) => run(),
): Promise<LoadResult[]> {
  const seconds = TURN_SECONDS;
  const turns = targets.map(() => [] as LoadResult[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, target] of targets.entries()) turns[i].push(await turn(target, () => load(baseUrl, target, seconds)));
  }
  return turns.map((results, i) => ({
    name: targets[i].name,
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    rps: Math.round(results.reduce((sum, r) => sum + r.requests, 0) / (seconds * results.length)),
    p50_ms: median(results.map((r) => r.p50_ms)),
    p99_ms: median(results.map((r) => r.p99_ms)),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  }));
}
