import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Certifier } from '../core/agent/certifier.js';
import type { ExecutionJournal } from '../core/agent/journal.js';
import type { PriceTable } from '../core/agent/runtime-deps.js';
import type { Config } from '../core/config.js';

/** What a job worker needs from the composition root (server/ hands it the process's deps). */
export interface WorkerDeps {
  config: Config;
  db: Knex;
  logger: Logger;
  /** The run journal the jobs write through (holds the secret key that opens key overrides). */
  journal: ExecutionJournal;
  certifier: Certifier;
  /** Model prices (the built-in table merged with SHIPGATE_PRICES_FILE); the built-in table when absent. */
  prices?: PriceTable;
}
