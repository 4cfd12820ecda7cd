import knex, { type Knex } from 'knex';
import PostgresClient from 'knex/lib/dialects/postgres/index.js';
import pg from 'pg';
import type { Logger } from 'pino';
import { databaseOutage } from './database-outage.js';
import { translateDriverError } from './translate-driver-error.js';

// Return int8/numeric counts as numbers and timestamps as Date (pg default), consistently.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * knex's PostgreSQL client, translating driver errors (a unique violation, bad stored input, the
 * database gone) into core errors where every builder query, transaction statement and
 * connection checkout is sent: stores and the error middleware never see a driver error.
 * A subclass, not a patched instance: knex builds each transaction's client from this prototype.
 */
class TranslatingPostgresClient extends PostgresClient {
  override async acquireConnection(): Promise<unknown> {
    try {
      return await super.acquireConnection();
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  override query(connection: unknown, queryParam: unknown): Promise<unknown> {
    return (super.query(connection, queryParam) as Promise<unknown>).catch((error: unknown) => {
      throw translateDriverError(error);
    });
  }
}

/**
 * knex's own messages (it prints them with console by default) as JSON lines. Connection
 * failures are left out: whoever asked for the connection gets the error and reports it, and
 * the outage tracker turns those reports into one line per 10 s.
 */
function knexLog(logger: Logger): Knex.Config['log'] {
  const unreachable = (message: unknown) =>
    /ECONNREFUSED|ECONNRESET|ETIMEDOUT|Connection terminated|Connection ended unexpectedly|not queryable|terminating connection|the database system is (starting up|shutting down)/i.test(
      String(message),
    );
  const send = (level: 'warn' | 'error' | 'debug') => (message: unknown) =>
    unreachable(message) ? logger.debug({ knex: String(message) }, 'knex') : logger[level]({ knex: String(message) }, 'knex');
  return { warn: send('warn'), error: send('error'), deprecate: send('warn'), debug: send('debug') };
}

/**
 * One pool per process; `max` small by default because replicas multiply it. With a logger,
 * knex logs through it and every new connection tells the outage tracker the database is back.
 */
export function createKnex(databaseUrl: string, poolMax = 10, logger?: Logger): Knex {
  const db = knex({
    client: TranslatingPostgresClient,
    connection: databaseUrl,
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 5000,
    ...(logger ? { log: knexLog(logger) } : {}),
  });
  if (logger) {
    const pool = (db.client as { pool?: { on(event: 'createSuccess', listener: () => void): void } }).pool;
    pool?.on('createSuccess', () => databaseOutage(logger).reachable());
  }
  return db;
}
