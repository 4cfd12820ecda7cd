import type { FakeRepos } from './fake-github-repos.js';
import { appJson, installationJson, repositoryJson, TOKEN_USER, userJson, withPersonalToken } from './fake-github-shapes.js';
import {
  checkRunJson,
  commentJson,
  pullRequestJson,
  type CheckRunFacts,
  type FakeComment,
  type PullRequestFacts,
} from './fake-github-pull-shapes.js';
import { gitHubError, type GitHubReply, type GitHubRoute, type GitHubRouteContext } from './fake-github-route.js';
import { pullPeopleRoutes } from './fake-github-people-routes.js';
import { teamMembersRoute } from './fake-github-team-route.js';
import { accessTokenRoute } from './fake-github-token-route.js';

export type FakeCheckRun = CheckRunFacts;
export type FakePullRequest = PullRequestFacts;

/** An answer forced on the next matching requests (502, 403 secondary rate limit with Retry-After, ...). */
interface Failure {
  method: string;
  pattern: RegExp;
  reply: GitHubReply;
  times: number;
}

/**
 * GitHub's state the App reads and writes: issue comments (paged with Link headers), check runs,
 * collaborator permissions, pull requests, default branches, installations and their tokens.
 */
export class FakeGitHubApp {
  comments: FakeComment[] = [];
  checkRuns: FakeCheckRun[] = [];
  /** login -> a built-in role (its classic `permission` folded as GitHub does), or a custom role with its `permission`. */
  permissions = new Map<string, string | { role_name: string; permission: string }>();
  /** `repo login` (lower case) -> the same, on that repository only; wins over `permissions`. Set with `grant`. */
  repoPermissions = new Map<string, string | { role_name: string; permission: string }>();
  pulls = new Map<string, FakePullRequest>();
  defaultBranches = new Map<string, string>();
  /** Repositories (lower case) GitHub shows only to their collaborators; any other is public. */
  privateRepos = new Set<string>();
  /** repo (lower case) -> installation id; a repository not here has no installation (404). */
  installations = new Map<string, number>();
  /** installation id -> when it was suspended: GitHub lists it with `suspended_at` and refuses it a token (403). */
  suspended = new Map<number, string>();
  /** `org/slug` (lower case) -> its members' logins; a team not here is unknown (404). Set with `team`. */
  teams = new Map<string, string[]>();
  /** Updates that left a comment or check run exactly as it was (posting should never send one). */
  noopWrites = 0;
  /** The App id check runs are created under (what `app_id` filters on). */
  appId = 4242;
  /** How long an installation token lives (GitHub: an hour); shorten it to see tokens minted again. */
  tokenLifetimeMs = 3600_000;
  /** Tokens minted narrowed to `repositories` or `permissions`: each is new, so a test can tell one from the next. */
  scopedTokens: { token: string; installation: number; repositories: string[] | null; permissions: Record<string, string> | null }[] = [];
  private failures: Failure[] = [];
  private nextId = 1000;

  /** The next `times` requests of `method` whose path matches `pattern` get `reply` instead. */
  failNext(method: string, pattern: RegExp, reply: GitHubReply, times = 1): void {
    this.failures.push({ method, pattern, reply, times });
  }

  /** `login`'s role on `repo` alone (a built-in role name, or a custom role with its `permission`). */
  grant(repo: string, login: string, role: string | { role_name: string; permission: string }): void {
    this.repoPermissions.set(`${repo} ${login}`.toLowerCase(), role);
  }

  /** Team `org/slug` with these members. */
  team(team: string, members: string[]): void {
    this.teams.set(team.toLowerCase(), members);
  }

  /** A comment by someone else (so tests can fill pages). */
  addComment(repo: string, number: number, body: string, user = 'someone', appId?: number): FakeComment {
    const now = new Date().toISOString();
    const comment = { id: this.nextId++, repo: repo.toLowerCase(), number, body, user, app_id: appId, created_at: now, updated_at: now };
    this.comments.push(comment);
    return comment;
  }

  /** Who a request posts as: the user of a personal token, else the App. */
  private poster = (ctx: GitHubRouteContext): [string, number | undefined] =>
    withPersonalToken(ctx.headers.authorization) ? [TOKEN_USER, undefined] : ['shipgate[bot]', this.appId];

  commentsOn(repo: string, number: number): FakeComment[] {
    return this.comments.filter((c) => c.repo === repo.toLowerCase() && c.number === number);
  }

  checkRunsOn(repo: string, sha: string, name?: string): FakeCheckRun[] {
    return this.checkRuns.filter((r) => r.repo === repo.toLowerCase() && r.head_sha === sha && (!name || r.name === name));
  }

  setPullRequest(repo: string, pr: FakePullRequest): void {
    this.pulls.set(`${repo.toLowerCase()}#${pr.number}`, pr);
  }

  pullRequest(repo: string, number: number): FakePullRequest | undefined {
    return this.pulls.get(`${repo.toLowerCase()}#${number}`);
  }

  /**
   * What a pull_request delivery says GitHub has: the pull request at its head (its author and
   * assignees when the fake does not know it yet), so GitHub and the deliveries agree.
   */
  learnPullRequest(event: string, payload: unknown): void {
    if (event !== 'pull_request') return;
    const p = payload as {
      repository?: { full_name?: string };
      pull_request?: {
        number: number;
        state: string;
        head: { sha: string; ref: string };
        base: { ref: string };
        user?: { login: string; type: string };
        assignees?: { login: string }[];
        labels?: { name: string }[];
      };
    };
    const pr = p.pull_request;
    if (!pr || !p.repository?.full_name) return;
    const known = this.pullRequest(p.repository.full_name, pr.number);
    this.setPullRequest(p.repository.full_name, {
      author: pr.user ? { login: pr.user.login, type: pr.user.type === 'Bot' ? 'Bot' : 'User' } : undefined,
      assignees: (pr.assignees ?? []).map((a) => a.login),
      ...known,
      // The labels the delivery reports, unless the test set GitHub's.
      labels: known?.labels ?? pr.labels?.map((l) => l.name),
      number: pr.number,
      head_sha: pr.head.sha,
      head_ref: pr.head.ref,
      base_ref: pr.base.ref,
      state: pr.state === 'closed' ? 'closed' : 'open',
    });
  }

  injected(method: string, path: string): GitHubReply | undefined {
    const failure = this.failures.find((f) => f.times > 0 && f.method === method && f.pattern.test(path));
    if (!failure) return undefined;
    failure.times -= 1;
    return failure.reply;
  }

  routes(repos: FakeRepos, apiBase: () => string): GitHubRoute[] {
    const repoOf = (ctx: GitHubRouteContext) => `${ctx.params.owner}/${ctx.params.repo}`.toLowerCase();
    const comment = (c: FakeComment) => commentJson(apiBase(), c);
    const checkJson = (r: FakeCheckRun) => checkRunJson(apiBase(), r);
    const now = () => new Date().toISOString();
    const body = (ctx: GitHubRouteContext) => (ctx.body ?? {}) as Record<string, unknown>;
    return [
      ...pullPeopleRoutes((ctx) => this.pulls.get(`${repoOf(ctx)}#${ctx.params.number}`), apiBase),
      teamMembersRoute(this.teams, apiBase),
      accessTokenRoute(this, apiBase),
      {
        method: 'GET',
        pattern: '/repos/{owner}/{repo}/issues/{number}/comments',
        handle: (ctx) => {
          const all = this.commentsOn(repoOf(ctx), Number(ctx.params.number));
          const perPage = Math.min(Number(ctx.query.get('per_page') ?? 30), 100);
          const page = Number(ctx.query.get('page') ?? 1);
          const last = Math.max(1, Math.ceil(all.length / perPage));
          const url = (p: number) => `${apiBase()}/repos/${repoOf(ctx)}/issues/${ctx.params.number}/comments?per_page=${perPage}&page=${p}`;
          const links = [...(page < last ? [`<${url(page + 1)}>; rel="next"`, `<${url(last)}>; rel="last"`] : [])];
          return {
            body: all.slice((page - 1) * perPage, page * perPage).map(comment),
            headers: links.length ? { link: links.join(', ') } : ({} as Record<string, string>),
          };
        },
      },
      {
        method: 'POST',
        pattern: '/repos/{owner}/{repo}/issues/{number}/comments',
        // By the App (an installation token), or by the user of a personal token, as GitHub records it.
        handle: (ctx) => ({
          status: 201,
          body: comment(this.addComment(repoOf(ctx), Number(ctx.params.number), String(body(ctx).body), ...this.poster(ctx))),
        }),
      },
      {
        method: 'PATCH',
        pattern: '/repos/{owner}/{repo}/issues/comments/{id}',
        handle: (ctx) => {
          const found = this.comments.find((c) => c.id === Number(ctx.params.id) && c.repo === repoOf(ctx));
          if (!found) return gitHubError(404, 'Not Found');
          if (found.body === String(body(ctx).body)) this.noopWrites += 1;
          found.body = String(body(ctx).body);
          found.updated_at = now();
          return { body: comment(found) };
        },
      },
      {
        method: 'GET',
        pattern: '/repos/{owner}/{repo}/commits/{ref}/check-runs',
        handle: (ctx) => {
          const name = ctx.query.get('check_name');
          const appId = ctx.query.get('app_id');
          const runs = this.checkRunsOn(repoOf(ctx), ctx.params.ref)
            .filter((r) => (!name || r.name === name) && (!appId || r.app_id === Number(appId)))
            .reverse();
          return { body: { total_count: runs.length, check_runs: runs.map(checkJson) } };
        },
      },
      {
        method: 'POST',
        pattern: '/repos/{owner}/{repo}/check-runs',
        handle: (ctx) => {
          const b = body(ctx);
          const run: FakeCheckRun = {
            id: this.nextId++,
            repo: repoOf(ctx),
            head_sha: String(b.head_sha),
            name: String(b.name),
            status: String(b.status ?? 'queued'),
            conclusion: (b.conclusion as string | undefined) ?? null,
            // GitHub's documented default: the App's homepage.
            details_url: String(b.details_url ?? appJson(apiBase(), this.appId).external_url),
            external_id: (b.external_id as string | undefined) ?? null,
            started_at: String(b.started_at ?? now()),
            output: (b.output as FakeCheckRun['output']) ?? { title: '', summary: '' },
            annotations_count: annotationsIn(b),
            app_id: this.appId,
          };
          if (run.conclusion) run.status = 'completed';
          if (run.status === 'completed') run.completed_at = String(b.completed_at ?? now());
          this.checkRuns.push(run);
          return { status: 201, body: checkJson(run) };
        },
      },
      {
        method: 'PATCH',
        pattern: '/repos/{owner}/{repo}/check-runs/{id}',
        handle: (ctx) => {
          const run = this.checkRuns.find((r) => r.id === Number(ctx.params.id) && r.repo === repoOf(ctx));
          if (!run) return gitHubError(404, 'Not Found');
          const b = body(ctx);
          const before = JSON.stringify([run.status, run.conclusion, run.details_url, run.output]);
          if (b.status) run.status = String(b.status);
          run.conclusion = (b.conclusion as string | undefined) ?? (b.status === 'in_progress' ? null : run.conclusion);
          if (run.conclusion) run.status = 'completed';
          if (b.details_url) run.details_url = String(b.details_url);
          if (b.output) run.output = b.output as FakeCheckRun['output'];
          run.annotations_count = (run.annotations_count ?? 0) + annotationsIn(b);
          run.completed_at = run.status === 'completed' ? String(b.completed_at ?? run.completed_at ?? now()) : null;
          if (JSON.stringify([run.status, run.conclusion, run.details_url, run.output]) === before) this.noopWrites += 1;
          return { body: checkJson(run) };
        },
      },
      {
        method: 'GET',
        pattern: '/repos/{owner}/{repo}/collaborators/{username}/permission',
        handle: (ctx) => {
          const role =
            this.repoPermissions.get(`${repoOf(ctx)} ${ctx.params.username}`.toLowerCase()) ??
            this.permissions.get(ctx.params.username) ??
            'none';
          // As GitHub answers: `permission` only admin, write, read or none (maintain shows as write, triage as read).
          const classic: Record<string, string> = { maintain: 'write', triage: 'read' };
          const { role_name, permission } = typeof role === 'string' ? { role_name: role, permission: classic[role] ?? role } : role;
          const user = { ...userJson(apiBase(), ctx.params.username), role_name };
          return { body: { permission, role_name, user } };
        },
      },
      {
        method: 'GET',
        pattern: '/repos/{owner}/{repo}/pulls/{number}',
        handle: (ctx) => {
          const pr = this.pulls.get(`${repoOf(ctx)}#${ctx.params.number}`);
          if (!pr) return gitHubError(404, 'Not Found');
          return { body: pullRequestJson(apiBase(), repoOf(ctx), pr) };
        },
      },
      {
        method: 'GET',
        pattern: '/repos/{owner}/{repo}',
        handle: (ctx) => {
          if (!repos.has(repoOf(ctx))) return gitHubError(404, 'Not Found');
          const options = { defaultBranch: this.defaultBranches.get(repoOf(ctx)) ?? 'main', private: this.privateRepos.has(repoOf(ctx)) };
          return { body: repositoryJson(apiBase(), repoOf(ctx), options) };
        },
      },
      {
        method: 'GET',
        pattern: '/repos/{owner}/{repo}/installation',
        handle: (ctx) => {
          const id = this.installations.get(repoOf(ctx));
          return id === undefined ? gitHubError(404, 'Not Found') : { body: installationJson(apiBase(), id, this.appId, ctx.params.owner) };
        },
      },
    ];
  }
}

/** How many annotations a check run request adds. */
function annotationsIn(body: Record<string, unknown>): number {
  const annotations = (body.output as { annotations?: unknown[] } | undefined)?.annotations;
  return Array.isArray(annotations) ? annotations.length : 0;
}
