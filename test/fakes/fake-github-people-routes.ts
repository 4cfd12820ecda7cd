import { WEB, idOf, nodeId, userJson } from './fake-github-shapes.js';
import { filesOf, type FakePullFile, type PullRequestFacts } from './fake-github-pull-shapes.js';
import { gitHubError, type GitHubReply, type GitHubRoute, type GitHubRouteContext } from './fake-github-route.js';

/** Who a pull request names and how it was reviewed, as GitHub lists them (commits, reviews). */

/** A git identity; `login` when GitHub links the e-mail to an account (then `type` is that account's). */
export interface FakeGitIdentity {
  name: string;
  email: string;
  login?: string;
  type?: 'User' | 'Bot';
}

export interface FakePullCommit {
  sha: string;
  message: string;
  author: FakeGitIdentity;
  committer: FakeGitIdentity;
}

export interface FakeReview {
  user: string;
  type?: 'User' | 'Bot';
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';
  commit_id: string;
  submitted_at?: string;
  id?: number;
}

/** GitHub lists at most this many commits of a pull request, whatever the pages. */
const COMMIT_LIST_LIMIT = 250;

/** GitHub lists at most this many files of a pull request, whatever the pages. */
const FILE_LIST_LIMIT = 3000;

/** A changed file (`diff-entry`) of pull request head `sha`. */
function pullFileJson(api: string, repo: string, sha: string, f: FakePullFile) {
  const additions = f.additions ?? 1;
  const deletions = f.deletions ?? 0;
  return {
    sha: f.status === 'removed' ? null : '0'.repeat(40),
    filename: f.filename,
    status: f.status ?? 'modified',
    additions,
    deletions,
    changes: additions + deletions,
    blob_url: `${WEB}/${repo}/blob/${sha}/${f.filename}`,
    raw_url: `${WEB}/${repo}/raw/${sha}/${f.filename}`,
    contents_url: `${api}/repos/${repo}/contents/${f.filename}?ref=${sha}`,
    ...(f.previous_filename ? { previous_filename: f.previous_filename } : {}),
  };
}

/** The commits a pull request shows: the test's, else one commit at the head by the pull request's author. */
export function commitsOf(pr: PullRequestFacts): FakePullCommit[] {
  if (pr.commits) return pr.commits;
  const login = pr.author?.login ?? 'contributor';
  const who = { name: login, email: `${login}@example.com`, login, type: pr.author?.type ?? 'User' };
  return [{ sha: pr.head_sha, message: `Change of pull request ${pr.number}`, author: who, committer: who }];
}

function pullCommitJson(api: string, repo: string, c: FakePullCommit) {
  const git = (who: FakeGitIdentity) => ({ name: who.name, email: who.email, date: '2024-01-01T00:00:00Z' });
  const account = (who: FakeGitIdentity) => (who.login ? userJson(api, who.login, who.type ?? 'User') : null);
  return {
    sha: c.sha,
    node_id: nodeId('Commit', idOf(c.sha)),
    url: `${api}/repos/${repo}/commits/${c.sha}`,
    html_url: `${WEB}/${repo}/commit/${c.sha}`,
    comments_url: `${api}/repos/${repo}/commits/${c.sha}/comments`,
    commit: {
      url: `${api}/repos/${repo}/git/commits/${c.sha}`,
      message: c.message,
      author: git(c.author),
      committer: git(c.committer),
      comment_count: 0,
      tree: { sha: '0'.repeat(40), url: `${api}/repos/${repo}/git/trees/${'0'.repeat(40)}` },
    },
    author: account(c.author),
    committer: account(c.committer),
    parents: [],
  };
}

function reviewJson(api: string, repo: string, number: number, r: FakeReview, index: number) {
  const id = r.id ?? idOf(`${repo}#${number}/review/${index}`);
  const html = `${WEB}/${repo}/pull/${number}#pullrequestreview-${id}`;
  const pull = `${api}/repos/${repo}/pulls/${number}`;
  return {
    id,
    node_id: nodeId('PullRequestReview', id),
    user: userJson(api, r.user, r.type ?? 'User'),
    body: '',
    state: r.state,
    html_url: html,
    pull_request_url: pull,
    _links: { html: { href: html }, pull_request: { href: pull } },
    submitted_at: r.submitted_at ?? new Date(Date.UTC(2024, 0, 1, 0, 0, index)).toISOString(),
    commit_id: r.commit_id,
    author_association: 'MEMBER',
  };
}

/** One page of `items` (`per_page` at most 100) with GitHub's Link header. */
function paged<T>(ctx: GitHubRouteContext, url: string, items: T[]): GitHubReply {
  const perPage = Math.min(Number(ctx.query.get('per_page') ?? 30), 100);
  const page = Number(ctx.query.get('page') ?? 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (p: number) => `<${url}?per_page=${perPage}&page=${p}>`;
  const headers: Record<string, string> = page < last ? { link: `${link(page + 1)}; rel="next", ${link(last)}; rel="last"` } : {};
  return { body: items.slice((page - 1) * perPage, page * perPage), headers };
}

/** GET /repos/{owner}/{repo}/pulls/{number}/commits, /reviews and /files over the fake's pull requests. */
export function pullPeopleRoutes(pullOf: (ctx: GitHubRouteContext) => PullRequestFacts | undefined, apiBase: () => string): GitHubRoute[] {
  const repoOf = (ctx: GitHubRouteContext) => `${ctx.params.owner}/${ctx.params.repo}`.toLowerCase();
  const base = (ctx: GitHubRouteContext, what: string) => `${apiBase()}/repos/${repoOf(ctx)}/pulls/${ctx.params.number}/${what}`;
  return [
    {
      method: 'GET',
      pattern: '/repos/{owner}/{repo}/pulls/{number}/commits',
      handle: (ctx) => {
        const pr = pullOf(ctx);
        if (!pr) return gitHubError(404, 'Not Found', 'https://docs.github.com/rest/pulls/pulls#list-commits-on-a-pull-request');
        const commits = commitsOf(pr).slice(0, COMMIT_LIST_LIMIT);
        return paged(
          ctx,
          base(ctx, 'commits'),
          commits.map((c) => pullCommitJson(apiBase(), repoOf(ctx), c)),
        );
      },
    },
    {
      method: 'GET',
      pattern: '/repos/{owner}/{repo}/pulls/{number}/reviews',
      handle: (ctx) => {
        const pr = pullOf(ctx);
        if (!pr) return gitHubError(404, 'Not Found', 'https://docs.github.com/rest/pulls/reviews#list-reviews-for-a-pull-request');
        const reviews = (pr.reviews ?? []).map((r, i) => reviewJson(apiBase(), repoOf(ctx), pr.number, r, i));
        return paged(ctx, base(ctx, 'reviews'), reviews);
      },
    },
    {
      method: 'GET',
      pattern: '/repos/{owner}/{repo}/pulls/{number}/files',
      handle: (ctx) => {
        const pr = pullOf(ctx);
        if (!pr) return gitHubError(404, 'Not Found', 'https://docs.github.com/rest/pulls/pulls#list-pull-requests-files');
        const files = filesOf(pr).slice(0, FILE_LIST_LIMIT);
        return paged(
          ctx,
          base(ctx, 'files'),
          files.map((f) => pullFileJson(apiBase(), repoOf(ctx), pr.head_sha, f)),
        );
      },
    },
  ];
}
