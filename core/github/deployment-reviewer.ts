/** shipgate's answer to a deployment protection request, as GitHub takes it. */
export interface DeploymentReview {
  environment_name: string;
  state: 'approved' | 'rejected';
  /** Shown on the workflow run; at most DEPLOYMENT_COMMENT_MAX_BYTES (core/github/github-limits.ts). */
  comment: string;
}

/**
 * The GitHub side of deployment protection rules (app/ implements it with the App's installation
 * token: an App can only review its own rule, so GITHUB_TOKEN cannot answer).
 */
export interface DeploymentReviewer {
  /** `POST /repos/{owner}/{repo}/actions/runs/{run_id}/deployment_protection_rule`. */
  review(installationId: number, repoRoot: string, runId: number, review: DeploymentReview): Promise<void>;
  /** Why nothing can be answered now (no App in force), else null; asked when needed, never kept. */
  whyNot(): Promise<string | null>;
}
