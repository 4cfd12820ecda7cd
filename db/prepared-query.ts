import type { Knex } from 'knex';

export interface PreparedStatement {
  /** Unique per statement text: pg parses and plans it once per connection under this name. */
  name: string;
  text: string;
}

/**
 * Runs a named (prepared) statement on a pooled connection straight through pg: on the hot
 * paths (a release decision, each step of an agent run) knex's raw query layer (binding
 * rewrites, query cloning, events) costs a noticeable share of the work. The pool, its timeouts and connection checks stay knex's;
 * driver errors reach the error handler untranslated as with any knex query.
 */
export async function preparedQuery<Row>(db: Knex, statement: PreparedStatement, values: unknown[]): Promise<Row[]> {
  const connection = await db.client.acquireConnection();
  try {
    const { rows } = await connection.query({ ...statement, values });
    return rows as Row[];
  } finally {
    await db.client.releaseConnection(connection);
  }
}
