import { requireStoredItem } from '../../core/accounts/require-stored-item.js';
import { z } from 'zod';
import { NotFoundError } from '../../core/errors.js';
import { decideRelease } from '../../core/release/decide-release.js';
import { decisionAnswerJson } from '../../core/release/decision-answer-json.js';
import { decisionUrl } from '../../core/release/decision-url.js';
import { recordEvidence } from '../../core/release/record-evidence.js';
import { releaseHealth } from '../../core/release/release-health.js';
import { EVIDENCE_BODY_BYTES, evidenceDocumentDownload, evidenceRecordBody, refuseOversizedContent } from '../evidence-document-http.js';
import { defineRoute } from '../route.js';
import { decisionResponseSchema } from '../schemas/release-decision-schemas.js';
import { evidenceIdParamsSchema, evidenceRequestSchema, evidenceResponseSchema } from '../schemas/release-evidence-schemas.js';
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
    repoAccess: { need: 'read', repository: ({ query }) => query.repo_root },
    responses: { 200: { description: 'The decision.', schema: decisionResponseSchema } },
    async handler({ query, ctx, deps }) {
      const { decision } = await decideRelease(deps.release, query.repo_root, query.commit_sha);
      // Without SHIPGATE_PUBLIC_URL, the address the caller reached us at beats the listen address (docs/release-gate.md).
      const base = deps.config.configuredPublicUrl ?? `${ctx.protocol}://${ctx.host}`;
      // Its JSON text is served again while a commit's answer stays the same (core/release/decision-answer-json.ts).
      const body = decisionAnswerJson(decision, decisionUrl(base, decision.repo_root, decision.commit_sha));
      return { headers: { 'Content-Type': 'application/json; charset=utf-8' }, body };
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
    repoAccess: { need: 'read', repository: ({ query }) => query.repo_root },
    responses: { 200: { description: 'The health report.', schema: healthResponseSchema } },
    async handler({ query, caller, deps }) {
      // Every repository's health: only those the caller can read on GitHub (docs/api.md, "Repository access").
      const scope = query.repo_root ?? (await deps.repoAccess.readableAmong(caller, deps.reads.repositoriesWith.snapshots));
      return { body: await releaseHealth(deps.release, scope) };
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
      "A GitHub Actions OIDC token (instead of an API key) may record evidence for its own repository (the token's `repository` claim, " +
      "and its `repository_id` and `repository_owner_id` where the App knows the ids) and only for the commit its run built: the token's `sha`, " +
      'or on a `pull_request` / `pull_request_target` run whose ref is `refs/pull/N/merge` the head of pull request N as the App recorded it ' +
      "(refused while the App has not seen that pull request). Its `ref` may only be the token's own branch (`refs/heads/<branch>`); a pull request or tag run sends none. " +
      "When the repository's gate names `evidence_sources`, only a token whose `job_workflow_ref` matches one may record. Each refusal is 403 naming the rule " +
      '(docs/release-gate.md, "Evidence from workflows"). The evidence then names the workflow run (`workflow_run`, with its `job_workflow_ref`, `run_id`, `event_name`), ' +
      'here and in the provenance of the decisions and snapshots that see it; a key upload names its user (`recorded_by`, and `recorded_by_user` in the provenance).\n\n' +
      '**Documents.** `content` carries the evidence document itself (JUnit XML, SARIF 2.1.0, CycloneDX 1.4-1.6 or SPDX 2.3 JSON, ' +
      'in-toto SLSA provenance v1 as a DSSE envelope or bare statement), base64 of its exact bytes, with `format` declared or detected. ' +
      'It is read once, here: the record keeps the SHA-256 of the bytes (`digest`, computed by shipgate), a normalised `summary`, and the ' +
      'document itself, stored once however often the same bytes are uploaded. The gate then judges what it says, not only the `status` CI claims. ' +
      'JSON with base64 rather than multipart: one request shape and one schema for curl, the Action and the OIDC path, validated like every other body; ' +
      'the body limit of this route is 16 MiB to fit 10 MiB of document. A document over 10 MiB is 413, one that does not read as its format ' +
      '422 with `loc` inside it (`["body", "content", ...]`), one whose parse runs longer than SHIPGATE_PARSE_DEADLINE_SECONDS (10 s unless configured) ' +
      '422 of type `evidence_parse_deadline_exceeded`; either way nothing is stored.',
    body: evidenceRequestSchema,
    maxBodyBytes: EVIDENCE_BODY_BYTES,
    workflows: { permission: 'record_evidence', repository: ({ body }) => body.repo_root },
    repoAccess: { need: 'write', repository: ({ body }) => body.repo_root },
    responses: { 201: { description: 'Recorded.', schema: evidenceResponseSchema } },
    errors: {
      403: "A workflow's token outside its rules: another repository, a commit its run did not build, another branch's ref, a workflow the gate's evidence_sources does not list, or ids that are not the repository's.",
      413: 'The document decodes to more than 10 MiB, or the body exceeds 16 MiB; nothing is stored.',
    },
    async handler({ body, caller, workflow, deps }) {
      const by = workflow ? { workflow } : { recorded_by: caller.user.id };
      refuseOversizedContent(body.content);
      return {
        status: 201,
        body: evidenceRecordBody(await recordEvidence(deps.release.store, deps.evidenceParser, body, by)),
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/releases/evidence/{evidence_id}/document',
    tags,
    auth: 'any',
    summary: "Download an evidence record's document",
    description:
      "The exact bytes uploaded as the evidence's `content`, with the Content-Type of its format (`application/xml`, `application/sarif+json`, " +
      '`application/vnd.cyclonedx+json`, `application/spdx+json`, `application/vnd.in-toto+json`), always as an attachment named after the evidence, ' +
      'with `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy, so a browser never renders it. Whoever may read the decision ' +
      'that shows the evidence (any API key) may download it. 404 for an unknown id, evidence without a document, or a document pruned ' +
      '(docs/release-gate.md, "Evidence read by content": retention).',
    params: evidenceIdParamsSchema,
    responses: {
      200: {
        description: 'The document (Content-Disposition: attachment).',
        contentType: 'application/octet-stream',
        schema: z.string().meta({ format: 'binary', description: "The exact bytes; Content-Type is the format's media type." }),
        headers: {
          'Content-Disposition': { description: 'attachment; filename="<evidence name>.<extension of the format>"', schema: z.string() },
          'X-Content-Type-Options': { description: 'nosniff', schema: z.string() },
          'Content-Security-Policy': { description: "default-src 'none'; sandbox", schema: z.string() },
          'Cache-Control': { description: 'private, no-cache', schema: z.string() },
        },
      },
    },
    async handler({ params, caller, deps }) {
      const doc = await deps.release.store.evidenceDocument(params.evidence_id);
      if (!doc) throw new NotFoundError('Evidence document');
      await requireStoredItem(deps.repoAccess, caller, doc.repo_root, 'read', new NotFoundError('Evidence document'));
      return evidenceDocumentDownload(doc);
    },
  }),
];
