import knex, { type Knex } from 'knex';
import pg from 'pg';

// Return int8/numeric counts as numbers and timestamps as Date (pg default), consistently.
pg.types.setTypeParser(20, (v) => Number(v));

/** One pool per process; `max` small by default because replicas multiply it. */
export function createKnex(databaseUrl: string, poolMax = 10): Knex {
  return knex({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 5000,
  });
}
