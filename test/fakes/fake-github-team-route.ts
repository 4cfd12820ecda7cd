import { userJson } from './fake-github-shapes.js';
import { gitHubError, type GitHubRoute } from './fake-github-route.js';

/** A team's members, paged as GitHub lists them; `teams` maps `org/slug` (lower case) to logins, a team not there is unknown (404). */
export function teamMembersRoute(teams: ReadonlyMap<string, string[]>, apiBase: () => string): GitHubRoute {
  return {
    method: 'GET',
    pattern: '/orgs/{org}/teams/{team_slug}/members',
    handle: (ctx) => {
      const members = teams.get(`${ctx.params.org}/${ctx.params.team_slug}`.toLowerCase());
      if (!members) return gitHubError(404, 'Not Found', 'https://docs.github.com/rest/teams/members#list-team-members');
      const perPage = Math.min(Number(ctx.query.get('per_page') ?? 30), 100);
      const page = Number(ctx.query.get('page') ?? 1);
      const last = Math.max(1, Math.ceil(members.length / perPage));
      const url = (p: number) => `${apiBase()}/orgs/${ctx.params.org}/teams/${ctx.params.team_slug}/members?per_page=${perPage}&page=${p}`;
      return {
        body: members.slice((page - 1) * perPage, page * perPage).map((login) => userJson(apiBase(), login)),
        headers: page < last ? { link: `<${url(page + 1)}>; rel="next", <${url(last)}>; rel="last"` } : ({} as Record<string, string>),
      };
    },
  };
}
