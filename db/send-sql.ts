import type { Knex } from 'knex';
import { translateDriverError } from './translate-driver-error.js';

/** A hand-written statement. With a `name` pg parses and plans it once per connection. */
export interface SqlStatement {
  /** Unique per statement text; give one to statements on a hot path. */
  name?: string;
  /** PostgreSQL placeholders: $1, $2, ... */
  text: string;
}

/**
 * The one way hand-written SQL is sent (everything else goes through the knex query builder;
 * `db.raw` is only a fragment inside a builder query). Straight through pg on a connection of
 * knex's pool, or on the transaction's connection when `db` is a transaction: on the hot paths (a
 * release decision, each step of an agent run, every rate-limited request) knex's raw query layer
 * (binding rewrites, query cloning, events) costs a noticeable share of the work. Driver errors
 * become core errors here, as they do for builder queries in the client that createKnex builds.
 */
export async function sendSql<Row>(db: Knex, statement: SqlStatement | string, values: unknown[] = []): Promise<Row[]> {
  const { name, text } = typeof statement === 'string' ? { name: undefined, text: statement } : statement;
  const connection = await db.client.acquireConnection();
  try {
    const { rows } = await connection.query({ name, text, values });
    return rows as Row[];
  } catch (error) {
    throw translateDriverError(error);
  } finally {
    await db.client.releaseConnection(connection);
  }
}
