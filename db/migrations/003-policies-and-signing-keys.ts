import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Custom policies only (built-in presets live in code). Versions are immutable rows.
  await db.schema.createTable('policies', (t) => {
    t.text('name').notNullable();
    t.integer('version').notNullable();
    t.jsonb('body').notNullable(); // the Policy, version included
    t.text('digest').notNullable();
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['name', 'version']);
  });
  await db.schema.createTable('signing_keys', (t) => {
    t.text('keyid').primary();
    t.jsonb('public_jwk').notNullable(); // kty, crv, x only
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('retired_at', { useTz: true });
  });
  // At most one current key.
  await db.raw('CREATE UNIQUE INDEX signing_keys_one_current ON signing_keys ((true)) WHERE retired_at IS NULL');
}
