import { ValidationError } from '../errors.js';
import type { CheckRun, UploadedEvidence, WorkflowRun } from './evidence.js';
import type { EvidenceRecord, EvidenceStore } from './release-store.js';
import { normalizeCommitSha, normalizeRefName, normalizeRepoRoot } from './repo-names.js';

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

/**
 * Records uploaded evidence for a commit (POST /releases/evidence), by a user's API key or by a
 * workflow run through its OIDC token (`by.workflow_run`).
 */
export async function recordEvidence(
  store: EvidenceStore,
  input: Omit<UploadedEvidence, 'workflow_run'> & Target,
  by: { recorded_by: string } | { workflow_run: WorkflowRun },
): Promise<EvidenceRecord> {
  const { kind, name, status, digest, uri, produced_at } = input;
  const recorder =
    'recorded_by' in by ? { recorded_by: by.recorded_by, workflow_run: null } : { recorded_by: null, workflow_run: by.workflow_run };
  return store.addEvidence({ ...commitRef(input), kind, name, status, digest, uri, produced_at, ...recorder });
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
}

/**
 * Records a check run for a commit, as the GitHub App sees it in a check_run delivery. Our own
 * check run is skipped: recording it would change the evidence each time a decision is posted.
 */
export async function recordCheckRun(store: EvidenceStore, input: CheckRunInput, now = new Date()): Promise<void> {
  const target = commitRef(input);
  if (input.name === RELEASE_GATE_CHECK_NAME) return;
  const produced = new Date(input.completed_at ?? input.started_at ?? now);
  if (!input.name?.trim() || input.name.length > 200)
    throw ValidationError.single(['name'], 'A check run needs a name of 1-200 characters.');
  if (Number.isNaN(produced.getTime())) throw ValidationError.single(['completed_at'], 'Not a timestamp.');
  const checkRun: CheckRun = {
    name: input.name,
    status: input.status,
    conclusion: input.status === 'completed' ? (input.conclusion ?? null) : null,
    produced_at: produced.toISOString(),
    details_url: input.details_url ?? null,
    external_id: input.external_id == null ? null : String(input.external_id),
  };
  return store.addCheckRun({ ...target, ...checkRun });
}
