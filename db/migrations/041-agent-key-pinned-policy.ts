import type { Knex } from 'knex';

/**
 * Agent keys pin the policy version their sessions run under, and say why a key was revoked
 * (docs/mcp-gateway.md, "Repository agent keys"). A key made before pins the version in force
 * now: the newest stored version of a custom policy, else 1 (every built-in preset is version 1,
 * and no custom policy may take a built-in's name). A key revoked before was revoked by an ADMIN.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE agent_keys ADD COLUMN policy_version integer;
    UPDATE agent_keys k SET policy_version = coalesce((SELECT max(p.version) FROM policies p WHERE p.name = k.compliance_policy), 1);
    ALTER TABLE agent_keys ALTER COLUMN policy_version SET NOT NULL;
    ALTER TABLE agent_keys ADD COLUMN revoked_reason text CHECK (revoked_reason IN ('revoked', 'creator_deactivated'));
    UPDATE agent_keys SET revoked_reason = 'revoked' WHERE revoked_at IS NOT NULL;
    ALTER TABLE agent_keys ADD CONSTRAINT agent_keys_revoked_with_reason CHECK ((revoked_at IS NULL) = (revoked_reason IS NULL));
    CREATE INDEX agent_keys_created_by ON agent_keys (created_by) WHERE revoked_at IS NULL;
  `);
}
