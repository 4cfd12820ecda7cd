import type { DeploymentReviewer } from '../core/github/deployment-reviewer.js';
import { parseRepoRoot } from '../core/release/repo-names.js';
import type { GitHubAppClient } from './github-access.js';
import { asRetryable } from './github-errors.js';

/** Answers deployment protection requests with the installation's token (an App reviews only its own rule). */
export function octokitDeploymentReviewer(client: GitHubAppClient | null): DeploymentReviewer {
  if (!client) {
    return {
      whyNot: 'Deployment protection requests are answered by the GitHub App: set APP_ID with PRIVATE_KEY or PRIVATE_KEY_PATH.',
      review: () => Promise.reject(new Error('No GitHub App credentials.')),
    };
  }
  return {
    whyNot: null,
    async review(installationId, repoRoot, runId, review) {
      const octokit = await client.asInstallation(installationId);
      try {
        await octokit.request('POST /repos/{owner}/{repo}/actions/runs/{run_id}/deployment_protection_rule', {
          ...parseRepoRoot(repoRoot),
          run_id: runId,
          ...review,
        });
      } catch (error) {
        throw asRetryable(error);
      }
    },
  };
}
