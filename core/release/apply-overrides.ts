import { evidenceEntryName } from '../evidence-content/evidence-rules.js';
import type { Blocker } from './blocker.js';
import type { Gate } from './gate.js';
import type { BlockerKey, OverrideBinding, OverrideFact } from './override.js';
import { checkEntryName } from './required-check-entry.js';

/** An override in force on a decision, with the blockers it lifted there. */
export interface OverriddenBlockers {
  id: string;
  /** The overrider's GitHub login. */
  by: string;
  reason: string;
  reason_digest: string;
  expires_at: string;
  blockers: Blocker[];
}

/**
 * Why no override may lift a blocker under `gate`, or null when one may: a certificate that does
 * not verify is never overridable (it is a forgery or corruption, not a late check), nor is anything
 * a rule with `overridable: false` reports: its approvals (`rule:<name>`), and its checks and
 * evidence by name, even where the gate's own `required_checks` also asks for them (fail closed).
 */
export function overrideRefusalOf(b: BlockerKey, gate: Gate): string | null {
  if (b.code === 'certificate_invalid')
    return `${b.code} on ${b.component} is never overridable: a certificate that does not verify cannot be waived.`;
  for (const rule of gate.rules) {
    if (rule.overridable !== false) continue;
    const components = [
      `rule:${rule.name}`,
      ...rule.require.checks.map((c) => `check:${checkEntryName(c)}`),
      ...rule.require.evidence.map((e) => `evidence:${evidenceEntryName(e)}`),
    ];
    if (components.some((c) => b.component === c || (c.startsWith('evidence:') && b.component.startsWith(`${c}:`)))) {
      return `${b.code} on ${b.component} belongs to rule '${rule.name}', which the gate marks \`overridable: false\`.`;
    }
  }
  return null;
}

const sameBlocker = (a: BlockerKey, b: BlockerKey) => a.code === b.code && a.component === b.component;

/**
 * Lifts the blockers the commit's active overrides name, where the gate in force still allows it
 * (docs/release-gate.md, "Overrides"). Expiry is judged against `now`, so a cached read of the
 * overrides never keeps an expired one in force. Pure.
 */
export function applyOverrides(
  blockers: Blocker[],
  overrides: readonly OverrideFact[],
  gate: Gate,
  now: Date,
): { remaining: Blocker[]; overridden: OverriddenBlockers[] } {
  const active = overrides.filter((o) => Date.parse(o.expires_at) > now.getTime());
  const overridden: OverriddenBlockers[] = [];
  let remaining = blockers;
  for (const o of active) {
    const lifted = remaining.filter((b) => o.blockers.some((k) => sameBlocker(k, b)) && overrideRefusalOf(b, gate) === null);
    if (lifted.length === 0) continue;
    remaining = remaining.filter((b) => !lifted.includes(b));
    overridden.push({
      id: o.id,
      by: o.created_by_login,
      reason: o.reason,
      reason_digest: o.reason_digest,
      expires_at: o.expires_at,
      blockers: lifted,
    });
  }
  return { remaining, overridden };
}

/** What the snapshot and the signed statement bind of each override in force: who, the reason's digest, until when, what. */
export function overrideBindings(overridden: readonly OverriddenBlockers[]): OverrideBinding[] {
  return overridden.map((o) => ({
    id: o.id,
    by: o.by,
    reason_digest: o.reason_digest,
    expires_at: o.expires_at,
    blockers: o.blockers.map(({ code, component }) => ({ code, component })),
  }));
}
