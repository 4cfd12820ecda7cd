import type { RepoPermissionReader } from '../core/accounts/repo-access.js';
import type { GitHubAppAccess } from './github-access.js';

/**
 * GitHub's permission of a user on a repository, read through the App's installation token
 * (`GET /repos/{owner}/{repo}/collaborators/{username}/permission`, `permission` and `role_name`
 * read by core/github/repo-permission.ts). Without App credentials, or where the App is not
 * installed, there is nobody to ask: `not_installed`, which the rule treats as not readable
 * (docs/api.md, "Repository access"). GITHUB_TOKEN is never used for this. A user GitHub does not
 * know (404) is `none`; any other failure (5xx, network, rate limit) throws, and becomes 503.
 * The App is the one in force when asked: a replica just started sees an App registered before it.
 */
export function installationPermissionReader(github: Pick<GitHubAppAccess, 'current' | 'repository'>): RepoPermissionReader {
  return {
    async permissionOf(repoRoot, login) {
      if (!(await github.current()).app) return 'not_installed';
      const repository = await github.repository(repoRoot, null);
      if (!repository) return 'not_installed';
      return repository.permissionOf(login);
    },
  };
}
