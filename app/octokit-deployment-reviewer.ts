import type { DeploymentReviewer } from '../core/github/deployment-reviewer.js';
import { parseRepoRoot } from '../core/release/github-identifiers.js';
import type { GitHubAppAccess } from './github-access.js';
import { asRetryable } from './github-errors.js';

const NO_APP = 'Deployment protection requests are answered by the GitHub App: set APP_ID with PRIVATE_KEY or PRIVATE_KEY_PATH.';

/**
 * Answers deployment protection requests with the installation's token (an App reviews only its
 * own rule), as the App in force when asked: one registered from the studio needs no restart.
 */
export function octokitDeploymentReviewer(github: Pick<GitHubAppAccess, 'current'>): DeploymentReviewer {
  return {
    async whyNot() {
      return (await github.current()).app ? null : NO_APP;
    },
    async review(installationId, repoRoot, runId, review) {
      const { app } = await github.current();
      if (!app) throw new Error('No GitHub App credentials.');
      const octokit = await app.asInstallation(installationId);
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
