import type { FakeGitHubApp } from './fake-github-app-routes.js';
import { appJson } from './fake-github-shapes.js';
import { gitHubError, type GitHubRoute } from './fake-github-route.js';

/**
 * An installation token as the App asks for one: the installation's whole reach, or narrowed to
 * `repositories` and `permissions` (each such token new, recorded in `scopedTokens`).
 */
export function accessTokenRoute(
  app: Pick<FakeGitHubApp, 'suspended' | 'tokenLifetimeMs' | 'installations' | 'scopedTokens' | 'appId'>,
  apiBase: () => string,
): GitHubRoute {
  return {
    method: 'POST',
    pattern: '/app/installations/{id}/access_tokens',
    handle: (ctx) => {
      const id = Number(ctx.params.id);
      if (app.suspended.has(id)) return gitHubError(403, 'This installation has been suspended');
      const { repositories, permissions } = (ctx.body ?? {}) as { repositories?: string[]; permissions?: Record<string, string> };
      const expires_at = new Date(Date.now() + app.tokenLifetimeMs).toISOString();
      if (!repositories && !permissions)
        return {
          status: 201,
          body: {
            token: `ghs_installation_${id}`,
            expires_at,
            permissions: appJson(apiBase(), app.appId).permissions,
            repository_selection: 'all',
          },
        };
      // GitHub refuses a repository the installation cannot reach (422), as it does a permission it was not granted.
      const reachable = [...app.installations].filter(([, i]) => i === id).map(([repo]) => repo.split('/')[1]);
      if (repositories?.some((r) => !reachable.includes(r.toLowerCase())))
        return gitHubError(422, 'There is at least one repository that does not exist or is not accessible to the parent installation.');
      const token = `ghs_installation_${id}_scoped_${app.scopedTokens.length + 1}`;
      app.scopedTokens.push({ token, installation: id, repositories: repositories ?? null, permissions: permissions ?? null });
      return {
        status: 201,
        body: {
          token,
          expires_at,
          permissions: permissions ?? appJson(apiBase(), app.appId).permissions,
          repository_selection: repositories ? 'selected' : 'all',
        },
      };
    },
  };
}
