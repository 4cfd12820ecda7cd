import { z } from 'zod';
import { APPROVAL_REFUSALS, AUTHORSHIP_READ_STATUSES } from '../../core/release/authorship.js';
import { BLOCKER_CODES } from '../../core/release/blocker.js';
import { gateObjectSchema } from '../../core/release/gate.js';
import { PROMOTION_TARGETS } from '../../core/release/promotion.js';
import { SNAPSHOT_STATUSES } from '../../core/release/snapshot.js';
import { decisionEvidenceContentFields } from './release-evidence-content-schemas.js';
import { evidenceFactFields, workflowRunSchema } from './release-evidence-schemas.js';
import { changedFilesSummarySchema, ruleOutcomeSchema } from './release-rule-schemas.js';
import { timestamp } from './release-schemas.js';

export const blockerSchema = z
  .object({
    code: z.enum(BLOCKER_CODES),
    component: z.string().meta({
      description:
        '`commit`, `check:<name>`, `evidence:<name>`, `evidence:<name>:<rule>` (a rule the evidence document breaks), `workflows`, `workflow:<id>`, `execution:<id>`, `commit:<sha>` (an agent’s commit), `pull_request:<number>` or `authorship:<pending|unreadable|commit_limit>`.',
    }),
    reason: z.string(),
    remediation_suggestion: z.string(),
    waitable: z.boolean().meta({
      description:
        'Time alone can clear it (nothing recorded yet, a required check missing or pending, required evidence missing): a client may ask again later. A failure is never waitable.',
    }),
  })
  .meta({ id: 'ReleaseBlocker' });

export const requirementSchema = z
  .object({
    policy: z.string().meta({ description: 'The gate field the requirement comes from, or `evidence` / `bound_workflows`.' }),
    requirement: z.string(),
    satisfied: z.boolean(),
    remediation: z.string().nullable(),
  })
  .meta({ id: 'ReleaseRequirement' });

export const baselineSchema = z
  .object({
    snapshot_id: z.uuid(),
    commit_sha: z.string(),
    release_label: z.string().nullable(),
    attested_at: timestamp,
  })
  .meta({ id: 'ReleaseBaseline', description: "The repository's latest attested (or promoted) snapshot other than this one." });

const checkRunSchema = z
  .object({
    name: z.string(),
    status: z.string(),
    conclusion: z.string().nullable(),
    produced_at: timestamp,
    details_url: z.string().nullable(),
    external_id: z.string().nullable(),
    app: z
      .object({
        id: z.number().int().nullable().meta({ description: "The App's numeric id (GitHub Actions: 15368)." }),
        slug: z.string().nullable().meta({ description: "The App's slug, e.g. `github-actions`." }),
      })
      .optional()
      .meta({
        description:
          'The GitHub App that reported the check run (its source), as the webhook delivery named it; absent when unknown (recorded before shipgate kept sources). A `required_checks` entry pinned to an App counts only that App’s check runs.',
      }),
  })
  .meta({ id: 'ReleaseCheckRun' });

const uploadedEvidenceSchema = z
  .object({
    ...evidenceFactFields,
    workflow_run: workflowRunSchema.optional().meta({
      description:
        'Who recorded it, when a workflow did with its OIDC token: the run, and (since shipgate bound workflow evidence) the workflow file its job ran (`job_workflow_ref`), the commit it built and the repository id.',
    }),
    recorded_by_user: z.uuid().optional().meta({
      description:
        'Who recorded it, when a user did with an API key: that user’s id. Absent for a workflow’s upload and for key uploads recorded before shipgate showed the recorder (their evidence record’s `recorded_by` names the user).',
    }),
    ...decisionEvidenceContentFields,
  })
  .meta({ id: 'ReleaseUploadedEvidence' });

const boundWorkflowSchema = z
  .object({
    workflow_id: z.string(),
    standalone: z.boolean().meta({ description: 'A single execution bound to the commit, counted as a one-stage workflow.' }),
    owner_id: z.uuid(),
    status: z.string(),
    executions: z.array(
      z.object({
        execution_id: z.uuid(),
        stage_id: z.string().nullable(),
        stage_role: z.string(),
        status: z.string(),
        verdict: z.string().nullable(),
        certificate_valid: z.boolean().nullable(),
      }),
    ),
    release: z.object({ admission: z.enum(['admitted', 'not_admitted', 'none']), reasons: z.array(z.string()) }),
    stages: z
      .array(
        z.object({
          stage_id: z.string(),
          stage_role: z.string(),
          status: z.string(),
          blocked_reasons: z.array(z.string()),
        }),
      )
      .optional()
      .meta({
        description:
          'For a workflow created with POST /workflows: every stage in order, including those that never ran (blocked, skipped).',
      }),
  })
  .meta({ id: 'ReleaseBoundWorkflow' });

const governedBySchema = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('bound_work').meta({ description: 'A workflow or execution bound to the commit (repo_root and commit_sha).' }),
      })
      .strict(),
    z
      .object({
        kind: z.literal('agent_session').meta({
          description:
            'An agent session of the repository that was open (and compliant) when shipgate received the push that brought the commit (docs/mcp-gateway.md).',
        }),
        session_id: z.uuid(),
        execution_id: z.uuid(),
        call: z.object({ seq: z.number().int(), tool: z.string(), command: z.string() }).optional().meta({
          description:
            "The session's recorded `git push` (a coding agent's shell call through its hooks) that brought the commit: the entry's seq in the session's record (docs/agent-hooks.md).",
        }),
      })
      .strict(),
  ])
  .meta({ id: 'ReleaseGovernedBy' });

export const authorshipSchema = z
  .object({
    status: z.enum([...AUTHORSHIP_READ_STATUSES, 'no_pull_request']).meta({
      description:
        '`read`: known. `pending`, `unreadable`, `commit_limit` (over the 250 commits GitHub lists): unknown, and a gate with agent rules does not ship it. `no_pull_request`: no open pull request or merge group names this commit; it is judged by the rules for people and its authorship is unknown.',
    }),
    pull_request: z.number().int().nullable(),
    agent_authored: z.boolean().nullable().meta({ description: 'The author or any commit is an agent; null when unknown.' }),
    agents: z.array(z.string()).meta({ description: 'The agents that took part: logins or e-mails.' }),
    commits: z.array(
      z.object({
        sha: z.string(),
        agent_authored: z.boolean(),
        identities: z.array(z.string()).meta({ description: '`author <who>`, `committer <who>`, `co-author <who>`.' }),
        governed_by: governedBySchema.nullable().meta({
          description:
            "What covers an agent's commit (the agent session, when one does); null for a person's commit, or an agent's nothing covers.",
        }),
      }),
    ),
    approvals: z
      .array(
        z.object({
          login: z.string(),
          state: z.string().meta({ description: 'The reviewer’s deciding review: APPROVED, CHANGES_REQUESTED or DISMISSED.' }),
          commit_sha: z.string().nullable().meta({ description: 'The head the review was made on.' }),
          counted: z.boolean(),
          reason: z.enum(APPROVAL_REFUSALS).nullable().meta({ description: 'Why it does not count; null when it counts.' }),
          reason_text: z.string().nullable().meta({
            description: 'The reason in words, as the check run gives it (e.g. `a co-author of its commits`); null when it counts.',
          }),
        }),
      )
      .meta({ description: 'One per reviewer with a deciding review.' }),
    changed_files: changedFilesSummarySchema
      .optional()
      .meta({ description: 'What the pull request changes; absent where its files were not judged.' }),
    rules: z
      .array(ruleOutcomeSchema)
      .optional()
      .meta({ description: 'Each rule of the gate that applies to the pull request, met or not (docs/release-gate.md, "Rules").' }),
  })
  .meta({
    id: 'ReleaseAuthorship',
    description: 'Who made the change and which approvals count (docs/release-gate.md, "Agents on pull requests").',
  });

const blockerKeySchema = z.object({ code: z.enum(BLOCKER_CODES), component: z.string() }).meta({ id: 'ReleaseBlockerKey' });

const overrideBindingSchema = z
  .object({
    id: z.uuid(),
    by: z.string().meta({ description: 'The overrider’s GitHub login.' }),
    reason_digest: z.string().meta({ description: 'SHA-256 (hex) of the reason’s UTF-8 bytes.' }),
    expires_at: timestamp,
    blockers: z.array(blockerKeySchema),
  })
  .meta({ id: 'ReleaseOverrideBinding' });

export const overriddenSchema = z
  .object({
    id: z.uuid(),
    by: z.string().meta({ description: 'The overrider’s GitHub login.' }),
    reason: z.string(),
    reason_digest: z.string(),
    expires_at: timestamp,
    blockers: z.array(blockerSchema).meta({ description: 'The blockers it lifted on this decision.' }),
  })
  .meta({ id: 'ReleaseOverridden' });

export const decisionResponseSchema = z
  .object({
    decision: z.enum(['SHIP', 'NO_SHIP']),
    repo_root: z.string(),
    commit_sha: z.string(),
    snapshot_id: z.uuid(),
    snapshot_status: z.enum(SNAPSHOT_STATUSES),
    allowed_promotions: z.array(z.enum(PROMOTION_TARGETS)).meta({
      description:
        'The target_status values POST /releases/promote accepts for this snapshot now (attested only for SHIP); separation of duties is checked when promoting.',
    }),
    blockers: z.array(blockerSchema).meta({ description: 'Distinct by (code, component); empty if and only if the decision is SHIP.' }),
    overridden: z.array(overriddenSchema).meta({
      description:
        'The overrides in force and the blockers each lifted (docs/release-gate.md, "Overrides"); SHIP when no other blocker stands. Empty when none.',
    }),
    explanation: z.array(requirementSchema).meta({ description: 'Every requirement of the gate and whether it is met.' }),
    provenance: z
      .object({
        evidence_digest: z.string().meta({ description: 'SHA-256 of the evaluated evidence and outcome; it addresses the snapshot.' }),
        gate: z.object({ version: z.number().int(), digest: z.string() }),
        check_runs: z.array(checkRunSchema),
        evidence: z.array(uploadedEvidenceSchema),
        workflows: z.array(boundWorkflowSchema),
        overrides: z.array(overrideBindingSchema).optional().meta({
          description: 'The overrides that lifted blockers of this decision, as the snapshot binds them; absent when none did.',
        }),
      })
      .meta({
        description:
          'What the snapshot binds, but its authorship: the snapshot binds the decision’s `authorship` (unless its `status` is `no_pull_request`), served once at the top level (docs/api.md, "The decision’s answer").',
      }),
    authorship: authorshipSchema,
    baseline: baselineSchema.nullable(),
    gate: gateObjectSchema.extend({ version: z.number().int(), digest: z.string(), source: z.string() }).meta({ id: 'ReleaseGateApplied' }),
    evaluated_at: timestamp,
    decision_url: z.string().meta({
      description:
        "The decision's page in the studio, under SHIPGATE_PUBLIC_URL (where the GitHub App's check run links too); without it, under the origin this request was made to.",
    }),
  })
  .meta({ id: 'ReleaseDecisionResponse' });
