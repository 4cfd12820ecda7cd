import type { Policy } from './policy.js';

/** Limits of every built-in preset: a long agent run, and the largest stage budget. */
export const PRESET_MAX_TOOL_CALLS = 50;
export const PRESET_MAX_BUDGET_CENTS = 1_000_000;

const REGULATED_CEILING = ['lineage:read', 'repo:read', 'document:*', 'review:submit', 'release:write'];

function regulated(name: string, description: string, retention_days: number): Policy {
  return {
    name,
    version: 1,
    description,
    ceiling: REGULATED_CEILING,
    defaults: REGULATED_CEILING,
    forbidden: ['network:*'],
    denied_call_severity: 'blocking',
    output_rules: ['secrets', 'pii'],
    max_tool_calls: PRESET_MAX_TOOL_CALLS,
    max_budget_cents: PRESET_MAX_BUDGET_CENTS,
    retention_days,
  };
}

/** The built-in presets (docs/workflows.md, "Governed agent executions": policies), in the order they are listed. Immutable: version 1. */
export const BUILT_IN_POLICIES: readonly Policy[] = [
  {
    name: 'default',
    version: 1,
    description: 'Any capability; denied tool calls are warnings; outputs are checked for secrets; records kept for a year.',
    ceiling: ['*'],
    defaults: ['*'],
    forbidden: [],
    denied_call_severity: 'warning',
    output_rules: ['secrets'],
    max_tool_calls: PRESET_MAX_TOOL_CALLS,
    max_budget_cents: PRESET_MAX_BUDGET_CENTS,
    retention_days: 365,
  },
  regulated('hipaa', 'HIPAA: no network access, denied tool calls block, outputs checked for secrets and PII, records kept 6 years.', 2190),
  regulated('sox', 'SOX: no network access, denied tool calls block, outputs checked for secrets and PII, records kept 7 years.', 2555),
  regulated(
    'legal_privilege',
    'Legal privilege: no network access, denied tool calls block, outputs checked for secrets and PII, records kept 10 years.',
    3650,
  ),
];

/** Other names a built-in answers to. */
export const POLICY_ALIASES: Readonly<Record<string, string>> = { legal: 'legal_privilege' };

/** The name a policy is stored and recorded under (aliases resolved). */
export function canonicalPolicyName(name: string): string {
  return POLICY_ALIASES[name] ?? name;
}

export function isBuiltInPolicyName(name: string): boolean {
  return BUILT_IN_POLICIES.some((p) => p.name === canonicalPolicyName(name));
}

/** A built-in preset by name or alias, or undefined. */
export function builtInPolicy(name: string): Policy | undefined {
  return BUILT_IN_POLICIES.find((p) => p.name === canonicalPolicyName(name));
}
