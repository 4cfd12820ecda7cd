import type { Knex } from 'knex';

/**
 * The release gate: gate versions, evidence (check runs and uploads), refs, content-addressed
 * snapshots and promotions. Indexes serve the decision (a handful of lookups per commit), the
 * badge (one lookup) and health (latest per repository) whatever the history size.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('gate_versions', (t) => {
    t.text('repo_root').notNullable();
    t.integer('version').notNullable();
    t.text('digest').notNullable();
    t.jsonb('gate').notNullable();
    t.text('source').notNullable();
    t.uuid('created_by').references('users.id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['repo_root', 'version']);
  });

  await db.schema.createTable('evidence', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.text('repo_root').notNullable();
    t.text('commit_sha').notNullable();
    t.text('source').notNullable(); // check_run | upload
    t.text('kind').notNullable();
    t.text('name').notNullable();
    t.text('status').notNullable();
    t.text('conclusion');
    t.text('digest');
    t.text('uri');
    t.text('details_url');
    t.text('external_id');
    t.text('ref');
    t.timestamp('produced_at', { useTz: true }).notNullable();
    t.uuid('recorded_by').references('users.id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.raw('CREATE INDEX evidence_commit_latest ON evidence (repo_root, commit_sha, source, name, produced_at DESC, created_at DESC)');
  await db.raw(`CREATE UNIQUE INDEX evidence_check_run_external_id ON evidence (repo_root, commit_sha, external_id)
    WHERE source = 'check_run' AND external_id IS NOT NULL`);

  await db.schema.createTable('refs', (t) => {
    t.text('repo_root').notNullable();
    t.text('ref').notNullable();
    t.text('commit_sha').notNullable();
    t.timestamp('observed_at', { useTz: true }).notNullable();
    t.primary(['repo_root', 'ref']);
  });

  await db.schema.createTable('snapshots', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.text('repo_root').notNullable();
    t.text('commit_sha').notNullable();
    t.text('evidence_digest').notNullable();
    t.text('decision').notNullable();
    t.jsonb('blockers').notNullable();
    t.jsonb('provenance').notNullable();
    t.text('status').notNullable().defaultTo('candidate');
    t.text('release_label');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    // When this evidence was last seen as the commit's current evidence: the latest snapshot has the greatest.
    t.timestamp('seen_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('attested_at', { useTz: true });
    t.unique(['repo_root', 'commit_sha', 'evidence_digest']);
  });
  await db.raw(`ALTER TABLE snapshots ADD CONSTRAINT snapshots_status_check
    CHECK (status IN ('candidate', 'attested', 'promoted', 'rejected', 'revoked'))`);
  await db.raw(`ALTER TABLE snapshots ADD CONSTRAINT snapshots_decision_check CHECK (decision IN ('SHIP', 'NO_SHIP'))`);
  await db.raw('CREATE INDEX snapshots_commit_latest ON snapshots (repo_root, commit_sha, seen_at DESC)');
  await db.raw(`CREATE INDEX snapshots_attested ON snapshots (repo_root, attested_at DESC) WHERE status IN ('attested', 'promoted')`);
  await db.raw(`CREATE INDEX snapshots_attested_all ON snapshots (attested_at DESC) WHERE status IN ('attested', 'promoted')`);
  await db.raw(`CREATE INDEX snapshots_candidates ON snapshots (repo_root, seen_at DESC) WHERE status = 'candidate'`);

  await db.schema.createTable('promotions', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('snapshot_id').notNullable().references('snapshots.id');
    t.text('repo_root').notNullable();
    t.text('commit_sha').notNullable();
    t.text('from_status').notNullable();
    t.text('status').notNullable();
    t.text('release_label');
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.uuid('promoted_by').notNullable().references('users.id');
    t.jsonb('attestation').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    // Every status is reached at most once per snapshot (the transitions form a DAG).
    t.unique(['snapshot_id', 'status']);
    t.index(['created_at', 'id']);
    t.index(['repo_root', 'commit_sha', 'created_at', 'id']);
    t.index(['repo_root', 'created_at', 'id']);
  });
}
