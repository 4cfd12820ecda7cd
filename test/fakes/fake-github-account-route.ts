import type { FakeOAuthUser } from './fake-github-oauth.js';
import { gitHubError, type GitHubRoute } from './fake-github-route.js';
import { CREATED, userJson } from './fake-github-shapes.js';

/**
 * `GET /user/{account_id}`: a GitHub account by its numeric id, as anyone sees it (GitHub's
 * `public-user`), among the accounts the fake knows (`gh.oauth.user(login)`); 404 for any other.
 * Repository access resolves a linked user's login through it (app/octokit-github-repository.ts).
 */
export function accountByIdRoute(accounts: () => Iterable<FakeOAuthUser>, apiBase: () => string): GitHubRoute {
  return {
    method: 'GET',
    pattern: '/user/{account_id}',
    handle: (ctx) => {
      const user = [...accounts()].find((account) => String(account.id) === ctx.params.account_id);
      if (!user) return gitHubError(404, 'Not Found');
      const body = {
        ...userJson(apiBase(), user.login),
        id: user.id,
        user_view_type: 'public',
        name: user.name,
        company: null,
        blog: '',
        location: null,
        email: null,
        hireable: null,
        bio: null,
        public_repos: 0,
        public_gists: 0,
        followers: 0,
        following: 0,
        created_at: CREATED,
        updated_at: CREATED,
      };
      return { body };
    },
  };
}
