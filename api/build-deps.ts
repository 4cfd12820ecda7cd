import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createAccountStore } from '../db/stores/account-store.js';
import { createRateLimiter } from '../db/stores/rate-limiter.js';
import type { Config } from './config.js';
import type { Metrics } from './create-metrics.js';
import type { Deps } from './deps.js';

/** Wires the stores and services every route uses. Tests call it with their own database. */
export function buildDeps(config: Config, db: Knex, logger: Logger, metrics: Metrics): Deps {
  return {
    config,
    db,
    logger,
    metrics: metrics.registry,
    accounts: createAccountStore(db),
    rateLimiter: createRateLimiter(db),
  };
}
