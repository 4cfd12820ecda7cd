import type { Decision } from '../release/evaluate-decision.js';
import type { Page, PageRequest } from '../pagination.js';
import type { DeploymentRuleIntent } from './deployment-rule-intent.js';
import type { GitHubRejection } from './github-port.js';

export type DeploymentState = 'waiting' | 'approved' | 'rejected';

/** One deployment protection request: a deployment of a workflow run to an environment. */
export interface DeploymentRequest {
  id: string;
  repo_root: string;
  environment: string;
  commit_sha: string;
  ref: string | null;
  run_id: number;
  deployment_id: number;
  installation_id: number;
  state: DeploymentState;
  decision: Decision | null;
  snapshot_id: string | null;
  timed_out: boolean;
  comment: string | null;
  requested_at: string;
  answered_at: string | null;
}

export interface DeploymentAnswer {
  state: 'approved' | 'rejected';
  decision: Decision;
  snapshot_id: string;
  timed_out: boolean;
  comment: string;
}

/** Storage port of deployment protection requests (db/stores/github/postgres-deployment-store.ts). */
export interface DeploymentStore {
  /**
   * Records a request once per (repository, run, environment, deployment): a redelivery, or the
   * same request delivered under another id, returns the row already recorded (which keeps the
   * delivery that first asked, where a refusal by GitHub is recorded).
   */
  recordRequest(intent: DeploymentRuleIntent, receivedAt: Date, deliveryId?: string | null): Promise<DeploymentRequest>;
  request(id: string): Promise<DeploymentRequest | null>;
  /** Requests still waiting for an answer on this commit (not those whose answer GitHub refused). */
  waitingAt(repoRoot: string, commitSha: string): Promise<DeploymentRequest[]>;
  /**
   * Waiting requests with no review queued (their job was lost): the recovery job queues them
   * again. A review that failed for good keeps its job record, so it is not retried every run;
   * one whose answer GitHub refused (422) is not listed at all.
   */
  orphaned(limit: number): Promise<DeploymentRequest[]>;
  /** Queues an evaluation of the request (one pending per request: a later call replaces it). */
  scheduleReview(id: string, options?: { runAt?: Date; attempt?: number }): Promise<void>;
  /**
   * Answers a waiting request exactly once: `send` runs while the request is held (no other
   * worker can answer it meanwhile) and the answer is recorded only when it succeeds. false:
   * the request is already answered, GitHub refused its answer, or another worker is answering it right now.
   */
  answerOnce(id: string, answer: DeploymentAnswer, send: () => Promise<void>): Promise<boolean>;
  /**
   * GitHub refused the request's answer (422): recorded on the request, which is reviewed no more
   * (the same answer would be refused again), and on the delivery that asked for it.
   */
  recordRejection(id: string, rejection: GitHubRejection): Promise<void>;
  /** Answered requests, newest answer first. */
  /** `repo_roots`: only these repositories (the caller's readable ones, docs/api.md "Repository access"). */
  listAnswered(
    filter: { repo_root?: string; environment?: string; repo_roots?: string[] },
    page: PageRequest,
  ): Promise<Page<DeploymentRequest>>;
}
