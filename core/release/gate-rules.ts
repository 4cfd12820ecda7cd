import { z } from 'zod';
import { requiredEvidenceListSchema } from '../evidence-content/evidence-rules.js';
import { visibleName } from '../visible-name.js';
import { pathGlobListSchema } from './path-globs.js';
import { requiredCheckListSchema } from './required-check-entry.js';

/** The most rules a gate holds. */
export const MAX_GATE_RULES = 100;

/** The name the protected paths' outcome carries, so no rule may take it. */
export const PROTECTED_PATHS_RULE = 'protected_paths';

/** Repository permissions in increasing order: an approver "with at least X" has X or a later one. */
export const RULE_PERMISSIONS = ['write', 'maintain', 'admin'] as const;

const login = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/, 'A GitHub login, without `@` (e.g. `ana`).')
  .toLowerCase();
const team = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, 'A team as `org/slug` (e.g. `acme/sre`), without `@`.')
  .toLowerCase();
const label = z.string().trim().min(1).max(100);

/** When a rule applies: every condition given must hold; none given always holds. */
const ruleConditionSchema = z
  .object({
    paths: pathGlobListSchema.min(1).optional().meta({
      description: 'gitignore-style globs: the change touches at least one matching path (a rename counts under both names).',
    }),
    paths_ignore: pathGlobListSchema.min(1).optional().meta({
      description:
        'gitignore-style globs: the change touches at least one path that matches none of these (and matches `paths`, if given).',
    }),
    authored_by: z.enum(['agent', 'person', 'any']).default('any').meta({
      description: '`agent`: an agent authored the pull request or any of its commits (the gate’s `agents`); `person`: none did.',
    }),
    base_branches: pathGlobListSchema
      .min(1)
      .optional()
      .meta({ description: 'Globs of the branch it merges into (e.g. `main`, `release/*`).' }),
    labels: z.array(label).min(1).max(100).optional().meta({ description: 'It carries at least one of these labels.' }),
  })
  .strict()
  .meta({ id: 'ReleaseGateRuleIf' });

/** Who may approve for a rule: anyone matching one of the given kinds (none given: any independent person with write). */
const approversSchema = z
  .object({
    users: z.array(login).max(100).optional().meta({ description: 'GitHub logins.' }),
    teams: z
      .array(team)
      .max(100)
      .optional()
      .meta({ description: 'Teams as `org/slug`; their members count (the App needs `members: read`).' }),
    permission: z.enum(RULE_PERMISSIONS).optional().meta({ description: 'Anyone with at least this permission on the repository.' }),
    codeowners: z.boolean().default(false).meta({
      description:
        'Each file the rule is about needs an approval from one of its owners in the base branch’s CODEOWNERS (a user, or a member of the team); code owners also count towards `approvals`.',
    }),
  })
  .strict()
  .meta({ id: 'ReleaseGateRuleApprovers' });

const ruleRequirementSchema = z
  .object({
    approvals: z.number().int().min(0).max(10).default(0).meta({
      description:
        'Independent approvals of the head needed from `approvers` (not an author, committer, co-author, agent’s assignee, bot or agent).',
    }),
    approvers: approversSchema.optional(),
    checks: requiredCheckListSchema
      .default([])
      .meta({ description: 'Check runs required when the rule applies; entries as in `required_checks`.' }),
    evidence: requiredEvidenceListSchema
      .default([])
      .meta({ description: 'Evidence required when the rule applies; entries as in `required_evidence`.' }),
  })
  .strict()
  .meta({ id: 'ReleaseGateRuleRequire' });

export const gateRuleSchema = z
  .object({
    name: visibleName(z.string().trim().min(1).max(100)).refine(
      (n) => n !== PROTECTED_PATHS_RULE,
      `\`${PROTECTED_PATHS_RULE}\` names the gate's protected paths; give the rule another name.`,
    ),
    if: ruleConditionSchema.prefault({}),
    require: ruleRequirementSchema.prefault({}),
    // Optional, no default: absent from a rule that does not name it, so existing gates keep their digest.
    overridable: z.boolean().optional().meta({
      description:
        'false: no override may lift this rule’s blockers (its approvals, its checks and its evidence), docs/release-gate.md, "Overrides". Absent: overridable.',
    }),
  })
  .strict()
  .meta({ id: 'ReleaseGateRule' });

/**
 * `rules` (docs/release-gate.md, "Rules"): an ordered list, each applying rule judged on its own. A repeated name is
 * reported at the later rule's `name`, so a gate file's problem points at its line.
 */
export const gateRuleListSchema = z
  .array(gateRuleSchema)
  .max(MAX_GATE_RULES)
  .superRefine((rules, ctx) => {
    const seen = new Set<string>();
    rules.forEach((rule, index) => {
      // Zod still refines a list whose items failed: an item may not be a rule at all.
      if (typeof (rule as Partial<GateRule> | null)?.name !== 'string') return;
      const key = rule.name.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `Rule names must be unique: \`${rule.name}\` is used before.` });
      seen.add(key);
    });
  });

export type GateRule = z.output<typeof gateRuleSchema>;
export type RuleApprovers = z.output<typeof approversSchema>;
