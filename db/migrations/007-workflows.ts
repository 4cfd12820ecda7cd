import type { Knex } from 'knex';

/**
 * Workflows and their stages. A stage row is the orchestration's state machine: its status
 * moves only by guarded updates (`WHERE status = <expected>`), and it holds its execution's id
 * once started, so a resumed orchestration job finds the run to resume instead of starting one.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('workflows', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('owner_id').notNullable().references('users.id');
    t.text('name').notNullable();
    t.text('description');
    t.text('status').notNullable().defaultTo('queued');
    t.text('repo_root');
    t.text('commit_sha');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.index(['owner_id', 'created_at', 'id']);
    t.index(['created_at', 'id']);
    t.index(['repo_root', 'commit_sha']);
  });
  await db.raw(`ALTER TABLE workflows ADD CONSTRAINT workflows_status_check
    CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled'))`);

  await db.schema.createTable('workflow_stages', (t) => {
    t.uuid('workflow_id').notNullable().references('workflows.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('stage_id').notNullable();
    t.text('name').notNullable();
    t.text('task').notNullable();
    t.text('stage_role').notNullable();
    t.text('policy_name').notNullable();
    t.integer('policy_version').notNullable();
    t.text('policy_digest').notNullable();
    t.integer('budget_cents').notNullable();
    t.text('provider').notNullable();
    t.text('model').notNullable();
    t.jsonb('permissions').notNullable().defaultTo('[]');
    t.jsonb('dropped_permissions').notNullable().defaultTo('[]');
    t.jsonb('upstream_stage_ids').notNullable().defaultTo('[]');
    t.text('status').notNullable().defaultTo('pending');
    t.uuid('execution_id').references('executions.id');
    t.jsonb('blocked_reasons').notNullable().defaultTo('[]');
    t.boolean('api_key_override').notNullable().defaultTo(false);
    // AES-256-GCM under the secret key; moved to the stage's execution when it starts, erased when the stage ends.
    t.text('api_key_ciphertext');
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.primary(['workflow_id', 'position']);
    t.unique(['workflow_id', 'stage_id']);
  });
  await db.raw(`ALTER TABLE workflow_stages ADD CONSTRAINT workflow_stages_status_check
    CHECK (status IN ('pending', 'running', 'completed', 'failed', 'blocked', 'skipped', 'cancelled'))`);
  // One execution per stage, ever: a second start of the same stage cannot even be stored.
  await db.raw('CREATE UNIQUE INDEX workflow_stages_execution ON workflow_stages (execution_id) WHERE execution_id IS NOT NULL');
  await db.raw('CREATE INDEX workflows_status ON workflows (status, created_at, id)');
}
