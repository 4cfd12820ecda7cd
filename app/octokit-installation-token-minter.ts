import type { InstallationTokenMinter } from '../core/github/installation-token-minter.js';
import { parseRepoRoot } from '../core/release/github-identifiers.js';
import type { GitHubAppAccess } from './github-access.js';
import { statusOf } from './github-errors.js';

/** Why no token can be minted while no App credentials are in force. */
export const NO_APP_FOR_TOKENS =
  "The GitHub App is not configured (APP_ID with PRIVATE_KEY, or a registration from the studio's GitHub page), so shipgate cannot mint installation tokens (docs/github-app.md).";

/** GitHub's own words for a refusal: its message, never a header or a request body. */
function gitHubWords(error: unknown): string {
  const data = (error as { response?: { data?: { message?: unknown } } } | null)?.response?.data;
  const message = typeof data?.message === 'string' ? data.message : 'no answer';
  const status = statusOf(error);
  return `${status === undefined ? 'GitHub could not be reached' : `GitHub answered ${status}`}: ${message.slice(0, 300)}`;
}

/**
 * Mints installation tokens narrowed to one repository and named permissions, as the App in force
 * at each call (docs/mcp-gateway.md, "Least-privilege upstream credentials"): the repository's
 * installation (`GET /repos/{owner}/{repo}/installation`, as the App), then
 * `POST /app/installations/{installation_id}/access_tokens` with `repositories: [name]` and
 * `permissions`. GitHub answers 422 when a permission exceeds what the installation was granted.
 */
export function octokitInstallationTokenMinter(github: Pick<GitHubAppAccess, 'current'>): InstallationTokenMinter {
  return {
    async whyNot() {
      return (await github.current()).app ? null : NO_APP_FOR_TOKENS;
    },
    async mint(repoRoot, permissions) {
      const { app } = await github.current();
      if (!app) return { refused: NO_APP_FOR_TOKENS };
      const { owner, repo } = parseRepoRoot(repoRoot);
      try {
        const octokit = await app.asApp();
        let installationId: number;
        try {
          installationId = (await octokit.rest.apps.getRepoInstallation({ owner, repo })).data.id;
        } catch (error) {
          if (statusOf(error) === 404) return { refused: `the GitHub App is not installed on ${repoRoot}` };
          throw error;
        }
        const { data } = await octokit.rest.apps.createInstallationAccessToken({
          installation_id: installationId,
          repositories: [repo],
          permissions: { ...permissions },
        });
        return { token: { token: data.token, expires_at: data.expires_at } };
      } catch (error) {
        return { refused: `GitHub refused a token for ${repoRoot}: ${gitHubWords(error)}` };
      }
    },
  };
}
