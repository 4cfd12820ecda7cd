import { z } from 'zod';
import { canonicalDigest } from '../canonical-json.js';
import { requiredEvidenceListSchema } from '../evidence-content/evidence-rules.js';
import { agentChangesSchema, agentsSchema } from './agent-gate-fields.js';
import { evidenceSourcesSchema } from './evidence-sources.js';
import { gateGlobBudgetProblem } from './gate-glob-budget.js';
import { gateRuleListSchema } from './gate-rules.js';
import { protectedPathsSchema } from './protected-paths.js';
import { requiredCheckListSchema } from './required-check-entry.js';

const DAY = 24 * 60 * 60;
const name = z.string().trim().min(1).max(200);
const seconds = z
  .number()
  .int()
  .min(60)
  .max(3650 * DAY);

/** Per-environment requirements of deployments (custom deployment protection rule). */
const environmentSchema = z
  .object({
    require_attested: z
      .boolean()
      .default(false)
      .meta({ description: 'Only a commit whose current snapshot was attested (or promoted) through /releases/promote may deploy here.' }),
  })
  .strict()
  .meta({ id: 'ReleaseGateEnvironment' });

/**
 * A repository's release gate (docs/release-gate.md, "Release gate": gate fields). One schema validates the REST body and
 * `.github/shipgate.yml`; every field has its default, so `{}` is the default gate.
 */
export const gateObjectSchema = z
  .object({
    required_checks: requiredCheckListSchema.default([]).meta({
      description:
        'Check runs that must complete successfully (success, or neutral or skipped unless `skipped_is_success` is false): names (any source may report them), `{name, app}` pinned to the GitHub App that must report them (docs/release-gate.md, "Checks pinned to their source"), `{name, paths}` required only when the change touches the globs (docs/release-gate.md, "Conditional checks"), or `{name, app, paths}`.',
    }),
    skipped_is_success: z.boolean().default(true).meta({
      description:
        'A required check GitHub reports as `skipped` or `neutral` counts as passing (as in branch protection); false: it blocks (docs/release-gate.md, "Conditional checks").',
    }),
    required_evidence: requiredEvidenceListSchema.default([]).meta({
      description:
        'Uploaded evidence that must be recorded with status passed: names, or `{name, format?, rules?}` whose document must also keep the rules (docs/release-gate.md, "Evidence read by content"). A document uploaded under a plain name gets its format’s default rule.',
    }),
    require_reviewed_release: z.boolean().default(false).meta({
      description:
        'A bound workflow must have a release stage admitted after a compliant review (every commit). Off by default: a person’s pull request ships on its checks and evidence; an agent’s also needs `agent_changes`.',
    }),
    evidence_max_age_seconds: seconds.default(7 * DAY).meta({ description: 'Required checks and evidence older than this are stale.' }),
    attestation_max_age_seconds: seconds
      .default(30 * DAY)
      .meta({ description: 'Health reports the latest attested snapshot as stale past this age.' }),
    separation_of_duties: z
      .boolean()
      .default(false)
      .meta({ description: 'An approver may not promote a snapshot whose evidence holds a workflow they own.' }),
    // Optional, no default: absent from a gate that does not name it, so existing gates keep their digest.
    evidence_sources: evidenceSourcesSchema,
    public_badge: z.boolean().default(true).meta({ description: 'false: the public badge always shows Unknown.' }),
    deployment_wait_seconds: z.number().int().min(0).max(DAY).default(1800).meta({
      description:
        'How long a deployment protection request waits while only pending required checks stand in the way, then it is rejected as timed out (0: answer at once).',
    }),
    environments: z
      .record(name, environmentSchema)
      .refine((envs) => Object.keys(envs).length <= 100, 'At most 100 environments.')
      .default({})
      .meta({
        description: 'What deployments to a named GitHub environment need beyond SHIP, e.g. `{production: {require_attested: true}}`.',
      }),
    // prefault: an omitted object is parsed as {}, so each of its fields gets its own default.
    agents: agentsSchema.prefault({}),
    agent_changes: agentChangesSchema.prefault({}).meta({
      description: 'Rules for pull requests an agent authored or took part in (docs/release-gate.md, "Agents on pull requests").',
    }),
    // Both with defaults (on, and []): a version stored before reads with them (db/stores release-rows), its recorded
    // digest unchanged; the next save records them (docs/release-gate.md, "Rules").
    protected_paths: protectedPathsSchema.prefault({}).meta({
      description:
        'An agent’s change touching these paths needs a maintainer’s approval (docs/release-gate.md, "Protected paths"); on by default, `enabled: false` turns it off.',
    }),
    rules: gateRuleListSchema.default([]).meta({
      description:
        'Ordered `{name, if, require}` rules by what a pull request touches, who made it, its base branch and labels (docs/release-gate.md, "Rules"); at most 100, names unique.',
    }),
  })
  .strict()
  .meta({ id: 'ReleaseGate' });

/**
 * The gate, its globs' budget checked first (core/release/gate-glob-budget.ts): a gate over it is
 * refused before any glob is checked. `gateObjectSchema` is the same shape, for schemas extending it.
 */
export const gateSchema = z.preprocess((input, ctx) => {
  const problem = gateGlobBudgetProblem(input);
  if (problem) ctx.addIssue({ code: 'custom', input, ...problem });
  return input;
}, gateObjectSchema);

export type Gate = z.output<typeof gateSchema>;

export const DEFAULT_GATE: Gate = gateSchema.parse({});

/** SHA-256 of the gate's canonical JSON: what snapshots and attestations cite as the policy. */
export function gateDigest(gate: Gate): string {
  return canonicalDigest(gate);
}

/** One recorded version of a repository's gate; version 0 is the built-in default. */
export interface GateVersion {
  repo_root: string;
  version: number;
  digest: string;
  gate: Gate;
  source: 'default' | 'api' | 'config_file';
  created_by: string | null;
  created_at: string | null;
}

export function defaultGateVersion(repoRoot: string): GateVersion {
  return {
    repo_root: repoRoot,
    version: 0,
    digest: gateDigest(DEFAULT_GATE),
    gate: DEFAULT_GATE,
    source: 'default',
    created_by: null,
    created_at: null,
  };
}
