import { canonicalDigest } from '../canonical-json.js';
import { ValidationError } from '../errors.js';
import { EVIDENCE_MEDIA_TYPES, type EvidenceFormat } from '../evidence-content/evidence-format.js';
import { provenanceKeysOf } from '../evidence-content/evidence-rules.js';
import type { EvidenceParser } from '../evidence-content/evidence-parser.js';
import { workflowRunOf, type WorkflowIdentity } from '../accounts/oidc.js';
import { admitWorkflowEvidence } from './admit-workflow-evidence.js';
import type { CheckRun, CheckRunApp, UploadedEvidence } from './evidence.js';
import type { Gate } from './gate.js';
import { gateInForce } from './gate-in-force.js';
import type { EvidenceRecord, EvidenceStore, GateStore } from './release-store.js';
import { normalizeCommitSha, normalizeRefName, normalizeRepoRoot } from './github-identifiers.js';

/** The App's own check run (docs/release-gate.md, "Release gate": check runs). It reports the decision, so it is never evidence for it. */
export const RELEASE_GATE_CHECK_NAME = 'shipgate / release gate';

interface Target {
  repo_root: string;
  commit_sha: string;
  ref?: string | null;
}

function commitRef(target: Target) {
  const repoRoot = normalizeRepoRoot(target.repo_root);
  const commitSha = normalizeCommitSha(target.commit_sha);
  const issues = [
    ...(repoRoot ? [] : [{ loc: ['repo_root'], msg: 'Expected owner/repo or https://github.com/owner/repo.', type: 'value_error' }]),
    ...(commitSha ? [] : [{ loc: ['commit_sha'], msg: 'Expected a 40-character hexadecimal commit SHA.', type: 'value_error' }]),
  ];
  if (issues.length > 0) throw new ValidationError(issues);
  return { repo_root: repoRoot!, commit_sha: commitSha!, ref: target.ref ? normalizeRefName(target.ref) : null };
}

/** An upload as POST /releases/evidence takes it: with `content`, base64 of the document's exact bytes, and its declared format. */
export type EvidenceUpload = Omit<UploadedEvidence, 'workflow_run' | 'recorded_by_user' | 'format' | 'summary_digest'> &
  Target & { content?: string | null; format?: EvidenceFormat | null };

/** `sha256:<hex>`, lower case; a bare hex digest is taken as SHA-256. */
const normalDigest = (digest: string) => (digest.includes(':') ? digest : `sha256:${digest}`).toLowerCase();

/**
 * Reads an uploaded document once (docs/release-gate.md, "Evidence read by content"): `parser` decodes it, computes its
 * digest (never taken from the client: a client digest that differs is refused) and parses it, off the event loop
 * with a deadline on the server (docs/operations.md, "Security"); the provenance keys the repository's gate in force
 * names are checked against its signatures now, since a decision reads the summary only.
 */
async function readDocument(gate: Gate, parser: EvidenceParser, content: string, declared: EvidenceFormat | null, claimed: string | null) {
  const { bytes, digest, format, summary } = await parser.read(content, declared, provenanceKeysOf(gate.required_evidence));
  if (claimed !== null && normalDigest(claimed) !== digest) {
    throw ValidationError.single(['body', 'digest'], `The document's SHA-256 is ${digest}; omit digest, or send this one.`);
  }
  return { bytes, digest, format, media_type: EVIDENCE_MEDIA_TYPES[format], summary, summary_digest: `sha256:${canonicalDigest(summary)}` };
}

/**
 * Records uploaded evidence for a commit (POST /releases/evidence), by a user's API key or by a
 * workflow run through its OIDC token (`by.workflow`), which must first be admitted
 * (`admitWorkflowEvidence`: a source the gate lists, the commit its run built, its own branch;
 * ForbiddenError otherwise). A document that does not read as its format throws
 * EvidenceDocumentInvalid, and one whose parse outlasts the deadline EvidenceParseDeadlineExceeded,
 * before anything is stored.
 */
export async function recordEvidence(
  store: EvidenceStore & GateStore,
  parser: EvidenceParser,
  input: EvidenceUpload,
  by: { recorded_by: string } | { workflow: WorkflowIdentity },
): Promise<EvidenceRecord> {
  const { kind, name, status, uri, produced_at } = input;
  const target = commitRef(input);
  // The gate in force, read only when a rule needs it: a key's plain upload costs no extra round trip.
  const gate = 'workflow' in by || input.content ? gateInForce(target.repo_root, await store.latestGate(target.repo_root)).gate : null;
  if ('workflow' in by) await admitWorkflowEvidence(by.workflow, gate!, store, { ...target, ref: input.ref });
  const document = input.content ? await readDocument(gate!, parser, input.content, input.format ?? null, input.digest) : undefined;
  const digest = document?.digest ?? input.digest;
  const recorder =
    'recorded_by' in by
      ? { recorded_by: by.recorded_by, workflow_run: null }
      : { recorded_by: null, workflow_run: workflowRunOf(by.workflow) };
  return store.addEvidence({ ...target, kind, name, status, digest, uri, produced_at, ...recorder, document });
}

export interface CheckRunInput extends Target {
  name: string;
  status: string;
  conclusion?: string | null;
  started_at?: string | null;
  completed_at?: string | null;
  details_url?: string | null;
  /** GitHub's check run id: later deliveries about the same run update it. */
  external_id?: string | number | null;
  /** The App that reported it (the delivery's `check_run.app`), when GitHub named it. */
  app?: CheckRunApp | null;
}

/**
 * Records a check run for a commit, as the GitHub App sees it in a check_run delivery received at
 * `receivedAt`. Our own check run is skipped: recording it would change the evidence each time a
 * decision is posted. Its time (completed_at, else started_at) is what its creator set through the
 * Checks API, so one later than `receivedAt` is recorded as `receivedAt` (docs/release-gate.md,
 * "Check runs dated in the future"): a date in the future neither makes it the newest of its name
 * for ever nor keeps it from ageing.
 */
export async function recordCheckRun(store: EvidenceStore, input: CheckRunInput, receivedAt = new Date()): Promise<void> {
  const target = commitRef(input);
  if (input.name === RELEASE_GATE_CHECK_NAME) return;
  const reported = new Date(input.completed_at ?? input.started_at ?? receivedAt);
  if (!input.name?.trim() || input.name.length > 200)
    throw ValidationError.single(['name'], 'A check run needs a name of 1-200 characters.');
  if (Number.isNaN(reported.getTime())) throw ValidationError.single(['completed_at'], 'Not a timestamp.');
  if (Number.isNaN(receivedAt.getTime())) throw new Error('recordCheckRun: receivedAt is not a time.');
  const produced = reported.getTime() > receivedAt.getTime() ? receivedAt : reported;
  const checkRun: CheckRun = {
    name: input.name,
    status: input.status,
    conclusion: input.status === 'completed' ? (input.conclusion ?? null) : null,
    produced_at: produced.toISOString(),
    details_url: input.details_url ?? null,
    external_id: input.external_id == null ? null : String(input.external_id),
    ...(input.app && (input.app.id !== null || input.app.slug) ? { app: { id: input.app.id, slug: input.app.slug || null } } : {}),
  };
  return store.addCheckRun({ ...target, ...checkRun });
}
