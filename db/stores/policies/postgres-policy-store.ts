import type { Knex } from 'knex';
import { sendSql } from '../../send-sql.js';
import { ConflictError } from '../../../core/errors.js';
import { BUILT_IN_POLICIES, builtInPolicy, isBuiltInPolicyName } from '../../../core/policies/built-in-policies.js';
import { DEFAULT_ASK_TIMEOUT_SECONDS } from '../../../core/policies/asked-capability.js';
import type { Policy, PolicyStore } from '../../../core/policies/policy.js';
import { policyDigest } from '../../../core/policies/policy-digest.js';
import type { PolicyRow } from '../../tables.js';

/** Exactly the Policy fields, in a fixed shape, so the digest depends on nothing else. */
function policyOf(source: Omit<Policy, 'version'>, version: number): Policy {
  return {
    name: source.name,
    version,
    description: source.description,
    ceiling: source.ceiling,
    defaults: source.defaults,
    forbidden: source.forbidden,
    denied_call_severity: source.denied_call_severity,
    output_rules: source.output_rules,
    max_tool_calls: source.max_tool_calls,
    max_budget_cents: source.max_budget_cents,
    retention_days: source.retention_days,
    // Only when set: a policy without `ask` keeps the digest it had before `ask` existed.
    ...(source.ask?.length ? { ask: source.ask } : {}),
    ...(source.ask?.length || asksByRule(source) ? { ask_timeout_seconds: source.ask_timeout_seconds ?? DEFAULT_ASK_TIMEOUT_SECONDS } : {}),
    // Likewise `tool_rules` (docs/agent-hooks.md): absent when none.
    ...(source.tool_rules?.length ? { tool_rules: source.tool_rules } : {}),
  };
}

/** Whether a tool rule holds calls for a person (then the policy names how long). */
const asksByRule = (source: Pick<Policy, 'tool_rules'>) => source.tool_rules?.some((rule) => rule.verdict === 'ask') ?? false;

function toPolicy(row: PolicyRow): Policy {
  return row.body as Policy;
}

/** Built-in presets from code, custom policies (immutable versions) from the `policies` table. */
export function createPolicyStore(db: Knex): PolicyStore {
  return {
    async get(name, version) {
      const builtIn = builtInPolicy(name);
      if (builtIn) return version === undefined || version === builtIn.version ? builtIn : null;
      const query = db<PolicyRow>('policies').where({ name });
      const row = version === undefined ? await query.orderBy('version', 'desc').first() : await query.where({ version }).first();
      return row ? toPolicy(row) : null;
    },
    async list() {
      const rows = await db<PolicyRow>('policies')
        .distinctOn('name')
        .orderBy([{ column: 'name' }, { column: 'version', order: 'desc' }]);
      return [...BUILT_IN_POLICIES, ...rows.map(toPolicy)];
    },
    async create(policy, createdBy) {
      if (isBuiltInPolicyName(policy.name))
        throw new ConflictError(`'${policy.name}' is a built-in policy and cannot be changed; choose another name.`);
      return db.transaction(async (trx) => {
        // Serialise versioning of one name; other names proceed in parallel.
        await sendSql(trx, 'SELECT pg_advisory_xact_lock(hashtext($1))', [`policy:${policy.name}`]);
        const [latest] = (await trx('policies').where({ name: policy.name }).max('version as version')) as { version: number | null }[];
        const created = policyOf(policy, Number(latest?.version ?? 0) + 1);
        await trx('policies').insert({
          name: created.name,
          version: created.version,
          body: created,
          digest: policyDigest(created),
          created_by: createdBy,
        });
        return created;
      });
    },
  };
}
