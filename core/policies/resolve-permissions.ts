import { capabilityCovers, intersectCapability } from './capability-matches.js';
import type { DroppedPermission, DropReason, Policy, Resolution, StageRole } from './policy.js';
import { ROLE_CEILINGS } from './role-ceilings.js';

function within(patterns: readonly string[], ceiling: readonly string[]): string[] {
  return patterns.flatMap((p) => ceiling.map((c) => intersectCapability(p, c)).filter((x): x is string => x !== null));
}

/** Without duplicates or patterns another one already covers, in first-seen order. */
function minimal(patterns: string[]): string[] {
  const unique = [...new Set(patterns)];
  return unique.filter((p, i) => !unique.some((q, j) => j !== i && capabilityCovers(q, p) && (!capabilityCovers(p, q) || j < i)));
}

/**
 * docs/workflows.md, "Governed agent executions": effective = requested (or the policy's defaults when none are requested) ∩ policy
 * ceiling ∩ stage-role ceiling − forbidden. A request broader than a ceiling is narrowed to it
 * (`document:*` for a release stage holds `document:read:*`); one with nothing left is dropped
 * with its reason. Defaults are narrowed silently: they are the policy's, not the caller's.
 * A pattern only partly forbidden (`*` under a ceiling of `*` forbidding `network:*`) is kept:
 * the runtime refuses forbidden calls one by one.
 */
export function resolvePermissions(policy: Policy, stageRole: StageRole, requested?: readonly string[]): Resolution {
  const explicit = requested !== undefined && requested.length > 0;
  const roleCeiling = ROLE_CEILINGS[stageRole];
  const effective: string[] = [];
  const dropped: DroppedPermission[] = [];
  for (const permission of new Set(explicit ? requested : policy.defaults)) {
    const drop = (reason: DropReason, detail: string) => {
      if (explicit) dropped.push({ permission, reason, detail });
    };
    if (permission === '*' && !policy.ceiling.includes('*')) {
      drop(
        'wildcard_denied_under_compliance',
        `'*' would grant every capability; policy '${policy.name}' has a narrower ceiling, so request specific capabilities.`,
      );
      continue;
    }
    const forbiddenBy = policy.forbidden.find((f) => capabilityCovers(f, permission));
    if (forbiddenBy) {
      drop('forbidden_by_policy', `Policy '${policy.name}' forbids ${forbiddenBy}.`);
      continue;
    }
    const allowedByPolicy = within([permission], policy.ceiling);
    if (allowedByPolicy.length === 0) {
      drop('exceeds_policy_ceiling', `Outside the ceiling of policy '${policy.name}': ${policy.ceiling.join(', ')}.`);
      continue;
    }
    const allowedByRole = within(allowedByPolicy, roleCeiling);
    if (allowedByRole.length === 0) {
      drop('exceeds_role_allowance', `Stage role '${stageRole}' allows only ${roleCeiling.join(', ')}.`);
      continue;
    }
    effective.push(...allowedByRole);
  }
  return { effective: minimal(effective), dropped };
}
