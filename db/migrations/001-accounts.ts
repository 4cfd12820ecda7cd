import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw('CREATE EXTENSION IF NOT EXISTS pgcrypto');
  await db.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.text('email').notNullable().unique(); // stored lower case
    t.text('name').notNullable();
    t.text('role').notNullable();
    t.text('password_hash').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['created_at', 'id']);
  });
  await db.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('key_hash').notNullable().unique();
    t.text('label').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.index(['user_id']);
  });
  await db.schema.createTable('login_failures', (t) => {
    t.bigIncrements('id');
    t.text('email').notNullable();
    t.timestamp('failed_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['email', 'failed_at']);
  });
  await db.schema.createTable('rate_limits', (t) => {
    t.text('bucket').notNullable();
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.primary(['bucket', 'window_start']);
  });
}
