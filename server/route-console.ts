import { format } from 'node:util';
import type { Logger } from 'pino';
import { databaseOutage } from '../db/database-outage.js';

const LEVELS = { debug: 'debug', log: 'info', info: 'info', warn: 'warn', error: 'error', trace: 'warn' } as const;

/**
 * Libraries that print with console (graphile-worker traces a worker's failed poll, pg and
 * knex warn there by default) write JSON lines through the one logger instead, so stdout and
 * stderr carry nothing else. An Error argument contributes its message, not its stack; one
 * saying the database is unreachable is counted by the outage tracker instead of logged.
 */
export function routeConsoleToLogger(logger: Logger): void {
  const outage = databaseOutage(logger);
  for (const [method, level] of Object.entries(LEVELS) as [keyof typeof LEVELS, (typeof LEVELS)[keyof typeof LEVELS]][]) {
    console[method] = (...args: unknown[]) => {
      const error = args.find((a): a is Error => a instanceof Error);
      if (error && outage.report(error, 'background')) return;
      const text = format(...args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : a)));
      logger[level]({ console: method }, text);
    };
  }
}
