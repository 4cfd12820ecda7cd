import type { Logger } from 'pino';
import { DatabaseUnavailableError, translateDriverError } from './translate-driver-error.js';

/** While the database is unreachable, at most one "database unavailable" line per this long. */
export const OUTAGE_LOG_INTERVAL_MS = 10_000;

export type OutageSource = 'request' | 'background';

/**
 * One process's view of database reachability, so an outage is a few log lines instead of
 * one per request, poll and library retry (see ARCHITECTURE.md, "Operations").
 */
export interface DatabaseOutage {
  /** True when `error` means the database is unreachable: then it is counted, not logged on its own. */
  report(error: unknown, source: OutageSource): boolean;
  /** A connection succeeded: logs "database reachable again" once if an outage was under way. */
  reachable(): void;
  readonly down: boolean;
}

export function isDatabaseUnreachable(error: unknown): boolean {
  return translateDriverError(error) instanceof DatabaseUnavailableError;
}

function createDatabaseOutage(logger: Logger): DatabaseOutage {
  let since: number | undefined;
  let loggedAt = 0;
  const counts = { request: 0, background: 0 };
  const total = { request: 0, background: 0 };
  return {
    get down() {
      return since !== undefined;
    },
    report(error, source) {
      if (!isDatabaseUnreachable(error)) return false;
      const now = Date.now();
      since ??= now;
      counts[source]++;
      total[source]++;
      if (now - loggedAt >= OUTAGE_LOG_INTERVAL_MS) {
        loggedAt = now;
        logger.error(
          {
            error: (error as Error)?.message,
            down_since: new Date(since).toISOString(),
            failed_requests: counts.request,
            failed_background_calls: counts.background,
          },
          'database unavailable',
        );
        counts.request = counts.background = 0;
      }
      return true;
    },
    reachable() {
      if (since === undefined) return;
      logger.info(
        { down_ms: Date.now() - since, failed_requests: total.request, failed_background_calls: total.background },
        'database reachable again',
      );
      since = undefined;
      loggedAt = 0;
      counts.request = counts.background = total.request = total.background = 0;
    },
  };
}

const outages = new WeakMap<Logger, DatabaseOutage>();

/** The outage tracker of this logger's process (one per logger, shared by the API, the worker and the pools). */
export function databaseOutage(logger: Logger): DatabaseOutage {
  let outage = outages.get(logger);
  if (!outage) outages.set(logger, (outage = createDatabaseOutage(logger)));
  return outage;
}
