import { workflowRunOf } from '../../core/accounts/oidc.js';
import { decideRelease } from '../../core/release/decide-release.js';
import { decisionUrl } from '../../core/release/decision-url.js';
import { recordEvidence } from '../../core/release/record-evidence.js';
import { releaseHealth } from '../../core/release/release-health.js';
import { defineRoute } from '../route.js';
import { decisionResponseSchema } from '../schemas/release-decision-schemas.js';
import { evidenceRequestSchema, evidenceResponseSchema } from '../schemas/release-evidence-schemas.js';
import { healthQuerySchema, healthResponseSchema } from '../schemas/release-health-schemas.js';
import { decisionQuerySchema } from '../schemas/release-schemas.js';

const tags = ['releases'] as const;

export const releaseRoutes = [
  defineRoute({
    method: 'get',
    path: '/releases/decision',
    tags,
    auth: 'any',
    summary: 'SHIP or NO_SHIP for a commit, evaluated now',
    description:
      "Evaluates the repository's gate against the commit's check runs, uploaded evidence and bound workflows. " +
      'SHIP if and only if `blockers` is empty. The evaluated evidence is stored as a snapshot addressed by its digest: ' +
      'asking again with unchanged evidence answers the same snapshot_id and stores nothing. ' +
      "A GitHub Actions OIDC token (instead of an API key) may read the decision of its own repository (the token's `repository` claim).",
    query: decisionQuerySchema,
    workflows: { permission: 'read_decision', repository: ({ query }) => query.repo_root },
    responses: { 200: { description: 'The decision.', schema: decisionResponseSchema } },
    async handler({ query, ctx, deps }) {
      const { decision } = await decideRelease(deps.release, query.repo_root, query.commit_sha);
      // Without SHIPGATE_PUBLIC_URL, the address the caller reached us at beats the listen address (docs/release-gate.md).
      const base = deps.config.configuredPublicUrl ?? `${ctx.protocol}://${ctx.host}`;
      return { body: { ...decision, decision_url: decisionUrl(base, decision.repo_root, decision.commit_sha) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/releases/health',
    tags,
    auth: 'any',
    summary: 'Release-gate health',
    description:
      'degraded when required runtime evidence is missing (a worker heartbeat in the last minute, a working signing key, ' +
      'the required checks/evidence of the latest candidate of each gated repository) or the latest attested snapshot is older than ' +
      "its gate's attestation_max_age_seconds; failed when the store is unreachable. No attested snapshot yet is not a degradation.",
    query: healthQuerySchema,
    responses: { 200: { description: 'The health report.', schema: healthResponseSchema } },
    async handler({ query, deps }) {
      return { body: await releaseHealth(deps.release, query.repo_root) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/releases/evidence',
    tags,
    auth: ['ADMIN', 'OPERATOR'],
    summary: 'Upload evidence for a commit (ADMIN, OPERATOR)',
    description:
      'The newest upload of each name (by produced_at) is what decisions see. `ref` records the commit as the head of a branch for the badge. ' +
      "A GitHub Actions OIDC token (instead of an API key) may record evidence for its own repository (the token's `repository` claim); " +
      'the evidence then names the workflow run (`workflow_run`), here and in the provenance of the decisions that see it.',
    body: evidenceRequestSchema,
    workflows: { permission: 'record_evidence', repository: ({ body }) => body.repo_root },
    responses: { 201: { description: 'Recorded.', schema: evidenceResponseSchema } },
    async handler({ body, caller, workflow, deps }) {
      const by = workflow ? { workflow_run: workflowRunOf(workflow) } : { recorded_by: caller.user.id };
      return { status: 201, body: await recordEvidence(deps.release.store, body, by) };
    },
  }),
];
