/** Counts requests per bucket (an API key, a token, a client address) so replicas share one limit. */
export interface RateLimiter {
  /** Counts one hit on `bucket`; returns seconds to wait when over `limit` per `windowSeconds`, else 0. */
  hit(bucket: string, limit: number, windowSeconds: number): Promise<number>;
}
