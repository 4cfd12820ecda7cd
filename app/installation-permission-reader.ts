import type { RepoPermissionReader } from '../core/accounts/repo-access.js';
import type { GitHubRepository } from '../core/github/github-port.js';
import type { GitHubAppAccess } from './github-access.js';

/**
 * GitHub's answers for repository access, read through the App's installation token: a GitHub
 * account's permission by its numeric id (`GET /user/{account_id}` for its login now, then
 * `GET /repos/{owner}/{repo}/collaborators/{username}/permission`, `permission` and `role_name`
 * read by core/github/repo-permission.ts), and whether the repository is public
 * (`GET /repos/{owner}/{repo}`). Without App credentials, or where the App is not installed, there
 * is nobody to ask: `not_installed`, which the rule treats as not readable (docs/api.md,
 * "Repository access"). GITHUB_TOKEN is never used for this. An account GitHub does not know
 * (404) is `none`; any other failure (5xx, network, rate limit) throws, and becomes 503. The App is
 * the one in force when asked: a replica just started sees an App registered before it.
 */
export function installationPermissionReader(github: Pick<GitHubAppAccess, 'current' | 'repository'>): RepoPermissionReader {
  const installed = async (repoRoot: string): Promise<GitHubRepository | null> =>
    (await github.current()).app ? github.repository(repoRoot, null) : null;
  return {
    async permissionOf(repoRoot, githubUserId) {
      const repository = await installed(repoRoot);
      return repository ? repository.permissionOfAccount(githubUserId) : 'not_installed';
    },
    async visibilityOf(repoRoot) {
      const repository = await installed(repoRoot);
      return repository ? repository.visibility() : 'not_installed';
    },
  };
}
