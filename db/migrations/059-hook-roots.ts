import type { Knex } from 'knex';

/**
 * Each hook-governed session's repository root (docs/agent-hooks.md, "Paths"): the working
 * directory its first tool call reported. A hook input's `cwd` is the agent's current directory,
 * which a `cd` moves; read from it, `workflows/x.yml` written after `cd .github` escaped
 * `write: .github/workflows/**`. Paths are now read from each call's `cwd` and made relative to
 * the session's root, set once (the first call of any replica wins) and never changed.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE TABLE hook_roots (
      execution_id uuid PRIMARY KEY,
      root text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )
  `);
}
