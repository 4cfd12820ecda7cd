import type { WorkflowIdentity } from '../accounts/oidc.js';
import { ForbiddenError } from '../errors.js';
import type { Gate } from './gate.js';
import { normalizeRefName } from './github-identifiers.js';
import { matchesEvidenceSource } from './matches-evidence-source.js';

/** The facts the rules below need from storage (the pull requests the App recorded from its deliveries). */
export interface WorkflowEvidenceFacts {
  /** The head commit of pull request `number` as the App last recorded it, or null when it never saw that pull request. */
  pullRequestHead(repoRoot: string, number: number): Promise<string | null>;
}

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);
const MERGE_REF = /^refs\/pull\/(\d{1,10})\/merge$/;

/** The pull request whose merge ref a `pull_request` run built, or null for any other run. */
function mergedPullRequest(workflow: WorkflowIdentity): number | null {
  if (!workflow.event_name || !PULL_REQUEST_EVENTS.has(workflow.event_name)) return null;
  const match = MERGE_REF.exec(workflow.ref ?? '');
  return match ? Number(match[1]) : null;
}

/** Only the workflows the gate's `evidence_sources` lists, when it lists any. */
function requireListedSource(workflow: WorkflowIdentity, gate: Gate, repoRoot: string): void {
  const sources = gate.evidence_sources;
  if (!sources || sources.some((pattern) => matchesEvidenceSource(pattern, workflow.job_workflow_ref))) return;
  const listed = sources.length === 0 ? 'it lists none: only API keys may' : `only ${sources.join(', ')} may`;
  throw new ForbiddenError(
    `The gate of ${repoRoot} names its evidence_sources and ${listed} record evidence for it; ` +
      `this token's workflow (job_workflow_ref ${workflow.job_workflow_ref ?? 'missing'}) is not one of them.`,
  );
}

/** Only the commit the run built: its `sha`, or on a pull request run the head its merge ref merged, as the App knows it. */
async function requireBuiltCommit(workflow: WorkflowIdentity, facts: WorkflowEvidenceFacts, repoRoot: string, commitSha: string) {
  if (workflow.sha === commitSha) return;
  const number = mergedPullRequest(workflow);
  const built = `the commit its run built: the token's "sha" (${workflow.sha ?? 'missing'})`;
  if (number === null) throw new ForbiddenError(`A GitHub Actions OIDC token may record evidence only for ${built}, not ${commitSha}.`);
  const head = await facts.pullRequestHead(repoRoot, number);
  if (head === commitSha) return;
  if (head === null)
    throw new ForbiddenError(
      `A GitHub Actions OIDC token may record evidence only for ${built} or the head of the pull request its ref (${workflow.ref}) merged; ` +
        `the App has not recorded pull request #${number} of ${repoRoot}, so shipgate cannot tell that ${commitSha} is its head.`,
    );
  throw new ForbiddenError(
    `A GitHub Actions OIDC token may record evidence only for ${built} or the head of the pull request its ref (${workflow.ref}) merged, ` +
      `which the App knows as ${head}; not ${commitSha}.`,
  );
}

/** A branch head moves only for the token's own branch (`refs/heads/<branch>`). */
function requireOwnBranch(workflow: WorkflowIdentity, ref: string | null | undefined): void {
  if (!ref) return;
  const branch = workflow.ref?.startsWith('refs/heads/') ? workflow.ref.slice('refs/heads/'.length) : null;
  if (branch !== null && normalizeRefName(ref) === branch) return;
  throw new ForbiddenError(
    branch === null
      ? `A GitHub Actions OIDC token moves only its own branch's head; its "ref" claim (${workflow.ref ?? 'missing'}) is no branch, so send no ref.`
      : `A GitHub Actions OIDC token moves only its own branch's head: its "ref" claim is ${workflow.ref}, so ref may be ${branch}, not ${ref}.`,
  );
}

/**
 * Whether a workflow may record this upload (docs/release-gate.md, "Evidence from workflows"): a
 * workflow the gate's `evidence_sources` lists (when it lists any), for the commit its run built,
 * moving at most its own branch's head. Throws ForbiddenError naming the rule it broke.
 */
export async function admitWorkflowEvidence(
  workflow: WorkflowIdentity,
  gate: Gate,
  facts: WorkflowEvidenceFacts,
  upload: { repo_root: string; commit_sha: string; ref?: string | null },
): Promise<void> {
  requireListedSource(workflow, gate, upload.repo_root);
  await requireBuiltCommit(workflow, facts, upload.repo_root, upload.commit_sha);
  requireOwnBranch(workflow, upload.ref);
}
