import type { Knex } from 'knex';

/**
 * Change counters for what a release decision reads (ARCHITECTURE.md, "Process-local state",
 * the decision's cache):
 * `release_commit_versions` counts the changes to one commit's state (its evidence, executions
 * and their execution certificates and review artifacts, workflows and stages, snapshots),
 * `release_repo_versions` those to a repository's (its gates, its attested or promoted
 * snapshots). A server keeps a commit's state read from the database together with both counts
 * and reuses it only while they are unchanged, so every replica sees every committed change.
 *
 * The counters are bumped by deferred constraint triggers: at commit, after every row the
 * transaction writes is locked, so a counter row is locked last and only for the commit's
 * duration (no lock-order deadlocks with the writes themselves), and in the same transaction as
 * the change it counts. A provider turn (which updates only `cost_cents`) and a tool call's
 * certificate bump nothing: the decision reads neither.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE release_commit_versions (
      repo_root text NOT NULL,
      commit_sha text NOT NULL,
      version bigint NOT NULL,
      PRIMARY KEY (repo_root, commit_sha)
    );
    CREATE TABLE release_repo_versions (
      repo_root text PRIMARY KEY,
      version bigint NOT NULL
    );

    CREATE FUNCTION shipgate_bump_commit_version(repo text, sha text) RETURNS void
    LANGUAGE sql SET search_path = public AS $$
      INSERT INTO release_commit_versions AS v (repo_root, commit_sha, version)
      SELECT repo, sha, 1 WHERE repo IS NOT NULL AND sha IS NOT NULL
      ON CONFLICT (repo_root, commit_sha) DO UPDATE SET version = v.version + 1
    $$;
    CREATE FUNCTION shipgate_bump_repo_version(repo text) RETURNS void
    LANGUAGE sql SET search_path = public AS $$
      INSERT INTO release_repo_versions AS v (repo_root, version) SELECT repo, 1 WHERE repo IS NOT NULL
      ON CONFLICT (repo_root) DO UPDATE SET version = v.version + 1
    $$;

    -- One function for every source; OLD is NULL on INSERT, NEW on DELETE. A row that moved
    -- (its commit changed) bumps both commits.
    CREATE FUNCTION shipgate_release_state_changed() RETURNS trigger
    LANGUAGE plpgsql SET search_path = public AS $$
    DECLARE
      old_key text[];
      new_key text[];
    BEGIN
      IF TG_TABLE_NAME = 'gate_versions' THEN
        PERFORM shipgate_bump_repo_version(NEW.repo_root);
        IF OLD.repo_root IS DISTINCT FROM NEW.repo_root THEN PERFORM shipgate_bump_repo_version(OLD.repo_root); END IF;
        RETURN NULL;
      END IF;
      IF TG_TABLE_NAME IN ('evidence', 'executions', 'workflows', 'snapshots') THEN
        old_key := ARRAY[OLD.repo_root, OLD.commit_sha];
        new_key := ARRAY[NEW.repo_root, NEW.commit_sha];
      ELSIF TG_TABLE_NAME = 'workflow_stages' THEN
        SELECT ARRAY[w.repo_root, w.commit_sha] INTO old_key FROM workflows w WHERE w.id = OLD.workflow_id;
        SELECT ARRAY[w.repo_root, w.commit_sha] INTO new_key FROM workflows w WHERE w.id = NEW.workflow_id;
      ELSE -- certificates (execution certificates), artifacts (reviews): the commit of their execution
        SELECT ARRAY[e.repo_root, e.commit_sha] INTO old_key FROM executions e WHERE e.id = OLD.execution_id;
        SELECT ARRAY[e.repo_root, e.commit_sha] INTO new_key FROM executions e WHERE e.id = NEW.execution_id;
      END IF;
      PERFORM shipgate_bump_commit_version(new_key[1], new_key[2]);
      IF old_key IS DISTINCT FROM new_key THEN PERFORM shipgate_bump_commit_version(old_key[1], old_key[2]); END IF;
      -- Nested: plpgsql plans an expression when it first runs it, and only snapshots have a status.
      IF TG_TABLE_NAME = 'snapshots' THEN
        IF OLD.status IN ('attested', 'promoted') OR NEW.status IN ('attested', 'promoted') THEN
          PERFORM shipgate_bump_repo_version(coalesce(NEW.repo_root, OLD.repo_root));
        END IF;
      END IF;
      RETURN NULL;
    END
    $$;
  `);
  await db.raw(
    [
      ...['gate_versions', 'evidence', 'workflows', 'workflow_stages', 'snapshots'].map((table) =>
        counted('release_state_changed', 'INSERT OR UPDATE OR DELETE', table),
      ),
      // Every column the decision reads; not cost_cents, which each provider turn updates.
      counted(
        'release_state_changed',
        'INSERT OR DELETE OR UPDATE OF id, owner_id, workflow_id, stage_id, stage_role, status, verdict, upstream_execution_ids, repo_root, commit_sha, created_at',
        'executions',
      ),
      ...countedOfKind('certificates', 'execution'),
      ...countedOfKind('artifacts', 'review'),
    ].join('\n'),
  );
}

/** A deferred constraint trigger that bumps the change counters (shipgate_release_state_changed). */
function counted(name: string, events: string, table: string, when?: string): string {
  return `CREATE CONSTRAINT TRIGGER ${name} AFTER ${events} ON ${table}
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW ${when ? `WHEN (${when}) ` : ''}EXECUTE FUNCTION shipgate_release_state_changed();`;
}

/** Only rows of `kind` are read by the decision (execution certificates, reviews); a tool call's are not. */
function countedOfKind(table: string, kind: string): string[] {
  return [
    counted('release_state_inserted', 'INSERT', table, `NEW.kind = '${kind}'`),
    counted('release_state_updated', 'UPDATE', table, `OLD.kind = '${kind}' OR NEW.kind = '${kind}'`),
    counted('release_state_deleted', 'DELETE', table, `OLD.kind = '${kind}'`),
  ];
}
