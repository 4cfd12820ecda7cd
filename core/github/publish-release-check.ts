import { decideRelease } from '../release/decide-release.js';
import { gateInForce } from '../release/gate-in-force.js';
import { readCommitState } from '../release/read-commit-state.js';
import type { ReleasePorts } from '../release/release-ports.js';
import { GATE_FILE_PATH } from '../release/set-gate-from-file.js';
import { toBaseline } from '../release/snapshot.js';
import { applyGateFile, type GateFileProblem } from './gate-file-problems.js';
import type { GateFileReader } from './gate-file-reader.js';
import type { GitHubAppStore, MergeGroupRecord, PublishTarget } from './github-app-store.js';
import { GitHubRejectedError, type GitHubAccess, type GitHubRepository } from './github-port.js';
import { evaluateMergeGroup, type GroupHead } from './merge-group-evaluation.js';
import { postCheckRun, postComment, type WriteOutcome } from './post-release-check.js';
import { checkRunContent, commentBody, type DecisionView } from './release-check-content.js';

export interface PublishDeps {
  release: ReleasePorts;
  /** Reads `.github/shipgate.yml` (the server: off the event loop). */
  gateFiles: GateFileReader;
  app: GitHubAppStore;
  access: GitHubAccess;
  publicUrl: string;
  log(event: string, fields: Record<string, unknown>): void;
  now?: () => Date;
}

/** `rejected`: GitHub refused the write (422, 403, 404: GitHubRejectedError); logged, recorded on the delivery, not retried. */
export type PostOutcome = WriteOutcome | 'rejected';

export interface PublishResult {
  view: DecisionView;
  /** null when nothing could be posted (no credentials). */
  check_run: PostOutcome | null;
  comments: { number: number; outcome: PostOutcome }[];
}

/**
 * Runs one write to GitHub; a refusal is logged with GitHub's message and recorded on the delivery
 * that asked (when one did) instead of failing the job: the same request would be refused again,
 * so retrying it would only loop. The other writes of the evaluation still go ahead.
 */
async function unlessRejected(deps: PublishDeps, target: PublishTarget, write: () => Promise<WriteOutcome>): Promise<PostOutcome> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof GitHubRejectedError)) throw error;
    const deliveryId = target.delivery_id ?? null;
    deps.log('github_post_rejected', {
      repo_root: target.repo_root,
      commit_sha: target.commit_sha,
      delivery_id: deliveryId,
      ...error.rejection,
    });
    if (deliveryId) await deps.app.recordRejection(deliveryId, error.rejection);
    return 'rejected';
  }
}

/**
 * `.github/shipgate.yml` from the DEFAULT branch sets the gate (a pull request can never loosen
 * its own gate); no file leaves the gate set through the API, or the defaults.
 */
export async function syncGateFile(
  release: ReleasePorts,
  gateFiles: GateFileReader,
  repo: GitHubRepository,
  repoRoot: string,
): Promise<GateFileProblem[]> {
  const text = await repo.readDefaultBranchFile(GATE_FILE_PATH);
  return text === null ? [] : applyGateFile(release.store, gateFiles, repoRoot, text);
}

/**
 * A merge group's check run: the group commit's own check runs with the uploaded evidence and bound
 * work of its pull request's head, judged by the authorship the decision on the group commit reads
 * (its pull request's, recorded with the group: docs/release-gate.md, "Agents on pull requests"),
 * so the check run, `GET /releases/decision`, the badge and the deployment rule apply one rule.
 */
async function mergeGroupView(deps: PublishDeps, group: MergeGroupRecord, now: Date) {
  const { repo_root: repoRoot, head_sha: sha, pull_request_number: number, pull_request_head_sha: prHead } = group;
  const state = await readCommitState(deps.release, repoRoot, sha);
  const heads: GroupHead[] = [];
  let unidentified: string | null = null;
  if (number === null) {
    unidentified = `The merge group's branch \`${group.head_ref}\` is not a merge queue branch (gh-readonly-queue/<base>/pr-<N>-<sha>), so its pull request is unknown.`;
  } else if (prHead === null) {
    unidentified = `Pull request #${number} of the merge group could not be found.`;
  } else {
    const head = await readCommitState(deps.release, repoRoot, prHead);
    heads.push({ number, sha: prHead, evidence: head.evidence, workflows: head.workflows, authorship: state.authorship });
  }
  const gate = gateInForce(repoRoot, state.gate);
  const { decision, blockers } = evaluateMergeGroup(gate.gate, state.evidence, heads, unidentified, now);
  const context = heads.length
    ? `Merge group for pull request #${heads[0].number} (head \`${heads[0].sha.slice(0, 12)}\`): the group's check runs with the pull request's evidence.`
    : 'Merge group: failing closed.';
  const requiredChecks = { entries: gate.gate.required_checks, check_runs: state.evidence.checkRuns };
  return {
    decision,
    blockers,
    context,
    baseline: state.attested[0] ? toBaseline(state.attested[0]) : null,
    required_checks: requiredChecks,
  };
}

/**
 * Evaluates a commit and posts the result: the check run on the commit and the comment on each
 * open pull request whose head it is (merge groups get the check run only). Without credentials
 * the decision is still computed and stored; the first such call per process says why nothing
 * is posted.
 */
export function createReleaseCheckPublisher(deps: PublishDeps): (target: PublishTarget) => Promise<PublishResult> {
  let toldWhyNot = false;
  return async function publish(target) {
    const now = deps.now?.() ?? new Date();
    const { repo_root: repoRoot, commit_sha: sha } = target;
    const repo = await deps.access.repository(repoRoot, target.installation_id);
    const configProblems = repo ? await syncGateFile(deps.release, deps.gateFiles, repo, repoRoot) : [];
    const group = await deps.app.mergeGroup(repoRoot, sha);
    let view: DecisionView;
    if (group) {
      const result = await mergeGroupView(deps, group, now);
      view = { ...result, repo_root: repoRoot, commit_sha: sha, config_problems: configProblems };
    } else {
      const { decision } = await decideRelease(deps.release, repoRoot, sha, now);
      const requiredChecks = { entries: decision.gate.required_checks, check_runs: decision.provenance.check_runs };
      view = { ...decision, context: null, config_problems: configProblems, required_checks: requiredChecks };
    }
    if (!repo) {
      if (!toldWhyNot) deps.log('github_cannot_post', { reason: await deps.access.whyNot(), repo_root: repoRoot, commit_sha: sha });
      toldWhyNot = true;
      return { view, check_run: null, comments: [] };
    }
    const checkRun = await unlessRejected(deps, target, () => postCheckRun(repo, sha, checkRunContent(view, deps.publicUrl)));
    const comments: PublishResult['comments'] = [];
    if (!group) {
      const body = commentBody(view, deps.publicUrl);
      for (const pr of await deps.app.openPullRequestsAt(repoRoot, sha)) {
        comments.push({ number: pr.number, outcome: await unlessRejected(deps, target, () => postComment(repo, pr.number, body)) });
      }
    }
    deps.log('github_posted', { repo_root: repoRoot, commit_sha: sha, decision: view.decision, check_run: checkRun, comments });
    return { view, check_run: checkRun, comments };
  };
}
