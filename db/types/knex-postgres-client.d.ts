declare module 'knex/lib/dialects/postgres/index.js' {
  import type { Knex } from 'knex';
  /** knex's PostgreSQL client class (untyped in knex's own declarations). */
  const PostgresClient: typeof Knex.Client;
  export default PostgresClient;
}
