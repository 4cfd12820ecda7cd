/** Counts requests per bucket (an API key, a token, a client address) so replicas share one limit. */
export interface RateLimiter {
  /** Counts one hit on `bucket`; returns seconds to wait when over `limit` per `windowSeconds`, else 0. */
  hit(bucket: string, limit: number, windowSeconds: number): Promise<number>;
}

/** The seconds to wait after a hit counted `count` in a window with `retry` seconds left: 0 within `limit`. */
export function retryAfterHit(count: number, retry: number, limit: number): number {
  return count > limit ? Math.max(1, retry) : 0;
}
