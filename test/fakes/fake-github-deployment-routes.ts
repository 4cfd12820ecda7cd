import { gitHubError, type GitHubRoute, type GitHubRouteContext } from './fake-github-route.js';

export interface FakeDeploymentReview {
  repo: string;
  run_id: number;
  environment_name: string;
  state: 'approved' | 'rejected';
  comment: string;
  /** The token it was sent with (an installation token, as GitHub requires). */
  token: string | undefined;
}

/**
 * GitHub's custom deployment protection rule callback: records each review. A second answer to
 * the same run and environment is refused as GitHub refuses it (the rule is no longer pending).
 */
export class FakeGitHubDeployments {
  reviews: FakeDeploymentReview[] = [];

  reviewsOf(repo: string, runId: number): FakeDeploymentReview[] {
    return this.reviews.filter((r) => r.repo === repo.toLowerCase() && r.run_id === runId);
  }

  routes(): GitHubRoute[] {
    const repoOf = (ctx: GitHubRouteContext) => `${ctx.params.owner}/${ctx.params.repo}`.toLowerCase();
    return [
      {
        method: 'POST',
        pattern: '/repos/{owner}/{repo}/actions/runs/{run_id}/deployment_protection_rule',
        handle: (ctx) => {
          const b = (ctx.body ?? {}) as Record<string, unknown>;
          const runId = Number(ctx.params.run_id);
          if (typeof b.environment_name !== 'string' || (b.state !== 'approved' && b.state !== 'rejected')) {
            return gitHubError(422, 'Invalid request: environment_name and state (approved|rejected) are required.');
          }
          if (typeof b.comment === 'string' && b.comment.length > 1024)
            return gitHubError(422, 'comment is too long (maximum is 1024 characters)');
          if (this.reviewsOf(repoOf(ctx), runId).some((r) => r.environment_name === b.environment_name)) {
            return gitHubError(422, 'No pending custom deployment protection rule for this environment.');
          }
          this.reviews.push({
            repo: repoOf(ctx),
            run_id: runId,
            environment_name: b.environment_name,
            state: b.state,
            comment: String(b.comment ?? ''),
            token: ctx.headers.authorization?.replace(/^(token|bearer)\s+/i, ''),
          });
          return { status: 204 };
        },
      },
    ];
  }
}
