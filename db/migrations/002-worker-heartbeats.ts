import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('worker_heartbeats', (t) => {
    t.text('worker_id').primary();
    t.timestamp('seen_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}
