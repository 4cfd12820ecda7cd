import { decideRelease } from '../release/decide-release.js';
import type { ReleasePorts } from '../release/release-ports.js';
import { deploymentComment, deploymentOutcome } from './deployment-outcome.js';
import type { DeploymentReviewer } from './deployment-reviewer.js';
import type { DeploymentStore } from './deployment-store.js';
import { GitHubRejectedError, type GitHubAccess } from './github-port.js';
import type { GateFileReader } from './gate-file-reader.js';
import { syncGateFile } from './publish-release-check.js';

export interface DeploymentDeps {
  release: ReleasePorts;
  deployments: DeploymentStore;
  reviewer: DeploymentReviewer;
  /** Reads `.github/shipgate.yml` from the default branch, as posting does. */
  access: GitHubAccess;
  /** Reads the gate file's text (the server: off the event loop). */
  gateFiles: GateFileReader;
  publicUrl: string;
  log(event: string, fields: Record<string, unknown>): void;
}

export type ReviewResult = 'answered' | 'waiting' | 'already_answered' | 'cannot_answer' | 'rejected_by_github';

/**
 * Evaluates a waiting deployment protection request and answers it when decided: approved
 * (SHIP and the environment's requirements), rejected (NO_SHIP, with the first blockers), or,
 * while only pending required checks stand in the way, not yet (evaluated again when a check
 * completes, and at the deadline, where it is rejected as timed out). Answered at most once.
 */
export async function reviewDeployment(deps: DeploymentDeps, requestId: string, now = new Date()): Promise<ReviewResult> {
  const request = await deps.deployments.request(requestId);
  if (!request || request.state !== 'waiting') return 'already_answered';
  const where = { request_id: request.id, repo_root: request.repo_root, environment: request.environment, commit_sha: request.commit_sha };
  const whyNot = await deps.reviewer.whyNot();
  if (whyNot) {
    deps.log('github_deployment_cannot_answer', { ...where, reason: whyNot });
    return 'cannot_answer';
  }
  const repo = await deps.access.repository(request.repo_root, request.installation_id);
  const configProblems = repo ? await syncGateFile(deps.release, deps.gateFiles, repo, request.repo_root) : [];
  const { decision, snapshot } = await decideRelease(deps.release, request.repo_root, request.commit_sha, now);
  const view = { ...decision, context: null, config_problems: configProblems };
  const outcome = deploymentOutcome({
    view,
    gate: decision.gate,
    environment: request.environment,
    snapshot_status: snapshot.status,
    requested_at: new Date(request.requested_at),
    now,
  });
  if (outcome.kind === 'wait') {
    await deps.deployments.scheduleReview(request.id, { runAt: outcome.until });
    deps.log('github_deployment_waiting', { ...where, until: outcome.until.toISOString() });
    return 'waiting';
  }
  const comment = deploymentComment(outcome, view, deps.publicUrl);
  let answered: boolean;
  try {
    answered = await deps.deployments.answerOnce(
      request.id,
      { state: outcome.state, decision: decision.decision, snapshot_id: snapshot.id, timed_out: outcome.timed_out, comment },
      () =>
        deps.reviewer.review(request.installation_id, request.repo_root, request.run_id, {
          environment_name: request.environment,
          state: outcome.state,
          comment,
        }),
    );
  } catch (error) {
    // The same answer would be refused again: record it and review this request no more.
    if (!(error instanceof GitHubRejectedError)) throw error;
    deps.log('github_post_rejected', { ...where, ...error.rejection });
    await deps.deployments.recordRejection(request.id, error.rejection);
    return 'rejected_by_github';
  }
  if (!answered) return 'already_answered';
  deps.log('github_deployment_answered', { ...where, state: outcome.state, decision: decision.decision, timed_out: outcome.timed_out });
  return 'answered';
}
