import type { Knex } from 'knex';

/**
 * Executions and everything a run records. Sized for 100,000 executions and 1,000,000 tool
 * calls: every per-execution table is keyed by (execution_id, position), so reading one run
 * is an index range scan, and the list/decision paths have their own indexes.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('executions', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('owner_id').notNullable().references('users.id');
    t.uuid('workflow_id');
    t.text('stage_id');
    t.text('task').notNullable();
    t.text('status').notNullable().defaultTo('queued');
    t.text('verdict');
    t.text('policy_name').notNullable();
    t.integer('policy_version').notNullable();
    t.text('policy_digest').notNullable();
    t.text('stage_role').notNullable();
    t.jsonb('permissions').notNullable().defaultTo('[]');
    t.jsonb('dropped_permissions').notNullable().defaultTo('[]');
    t.integer('budget_cents').notNullable();
    t.integer('cost_cents').notNullable().defaultTo(0);
    t.text('provider').notNullable();
    t.text('model').notNullable();
    t.boolean('api_key_override').notNullable().defaultTo(false);
    // AES-256-GCM under the secret key; erased (null) as soon as the execution ends.
    t.text('api_key_ciphertext');
    t.jsonb('upstream_execution_ids').notNullable().defaultTo('[]');
    t.text('repo_root');
    t.text('commit_sha');
    t.text('output');
    t.jsonb('error');
    t.jsonb('violations').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.index(['owner_id', 'created_at', 'id']);
    t.index(['created_at', 'id']);
    t.index(['status', 'created_at', 'id']);
    t.index(['repo_root', 'commit_sha']);
    t.index(['workflow_id']);
  });
  await db.raw(`ALTER TABLE executions ADD CONSTRAINT executions_status_check
    CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled'))`);

  await db.schema.createTable('execution_messages', (t) => {
    t.uuid('execution_id').notNullable().references('executions.id').onDelete('CASCADE');
    t.integer('idx').notNullable();
    t.jsonb('message').notNullable();
    t.primary(['execution_id', 'idx']);
  });

  await db.schema.createTable('certificates', (t) => {
    t.uuid('id').primary();
    // Issue order within an execution (certificates chain by `prev`, so order matters).
    t.bigIncrements('ordinal', { primaryKey: false });
    t.uuid('execution_id').references('executions.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('theorem').notNullable();
    t.text('plan_hash').notNullable();
    t.jsonb('verified_properties').notNullable().defaultTo('[]');
    t.text('prover').notNullable();
    t.timestamp('issued_at', { useTz: true }).notNullable();
    t.text('digest').notNullable();
    t.jsonb('envelope').notNullable();
    t.index(['execution_id', 'ordinal']);
    t.index(['digest']);
  });

  await db.schema.createTable('tool_calls', (t) => {
    t.uuid('execution_id').notNullable().references('executions.id').onDelete('CASCADE');
    t.integer('seq').notNullable();
    t.text('call_id').notNullable();
    t.text('tool').notNullable();
    t.jsonb('arguments');
    t.text('capability');
    t.text('verdict').notNullable();
    t.text('reason');
    t.uuid('certificate_id');
    t.text('result_digest');
    t.text('output');
    t.integer('duration_ms').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['execution_id', 'seq']);
  });

  await db.schema.createTable('artifacts', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('execution_id').notNullable().references('executions.id').onDelete('CASCADE');
    t.integer('seq');
    t.text('kind').notNullable();
    t.text('name').notNullable();
    t.text('content').notNullable();
    t.text('digest').notNullable();
    t.boolean('approved_for_release');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['execution_id', 'seq']);
  });
}
