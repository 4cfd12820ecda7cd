import { CREATED, WEB, appJson, idOf, nodeId, repositoryJson, userJson } from './fake-github-shapes.js';
import type { FakePullCommit, FakeReview } from './fake-github-people-routes.js';

/** Pull requests, check runs and comments as GitHub's REST API sends them (see fake-github-shapes.ts). */

/** What the fake keeps of a pull request. */
export interface PullRequestFacts {
  number: number;
  head_sha: string;
  head_ref: string;
  base_ref: string;
  state: 'open' | 'closed';
  /** The REST `user` (default `contributor`, a User). */
  author?: { login: string; type: 'User' | 'Bot' };
  assignees?: string[];
  /** Its commits, oldest first (default: one commit at the head by the author). */
  commits?: FakePullCommit[];
  /** What GitHub counts as the pull request's commits, when more than the list holds. */
  commit_count?: number;
  reviews?: FakeReview[];
  /** Its labels' names (default none). */
  labels?: string[];
  /** The files it changes, as GET /pulls/{n}/files lists them (default: one modified `README.md`). */
  files?: FakePullFile[];
  /** What GitHub counts as its changed files (`changed_files`), when more than the list holds; null: an answer without it (GitHub's never). */
  changed_files?: number | null;
}

/** A changed file of a pull request; a rename names its old path. */
export interface FakePullFile {
  filename: string;
  status?: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  previous_filename?: string;
  additions?: number;
  deletions?: number;
}

/** The files a pull request shows: the test's, else one modified README.md. */
export function filesOf(pr: PullRequestFacts): FakePullFile[] {
  return pr.files ?? [{ filename: 'README.md', status: 'modified', additions: 1, deletions: 0 }];
}

/** A label as a pull request carries it (`label`). */
function labelJson(api: string, repo: string, name: string) {
  const id = idOf(`${repo}/label/${name}`);
  return {
    id,
    node_id: nodeId('Label', id),
    url: `${api}/repos/${repo}/labels/${encodeURIComponent(name)}`,
    name,
    description: '',
    color: 'ededed',
    default: false,
  };
}

/** A pull request as GET /repos/{owner}/{repo}/pulls lists it (`pull-request-simple`). */
export function pullRequestSimpleJson(api: string, repo: string, pr: PullRequestFacts, updatedAt = new Date().toISOString()) {
  const id = idOf(`${repo}#${pr.number}`);
  const url = `${api}/repos/${repo}/pulls/${pr.number}`;
  const issue = `${api}/repos/${repo}/issues/${pr.number}`;
  const html = `${WEB}/${repo}/pull/${pr.number}`;
  const branch = (ref: string, sha: string) => ({
    label: `${repo.split('/')[0]}:${ref}`,
    ref,
    sha,
    user: userJson(api, repo.split('/')[0], 'Organization'),
    repo: repositoryJson(api, repo),
  });
  const links = { self: url, html, issue, comments: `${issue}/comments`, commits: `${url}/commits` };
  return {
    url,
    id,
    node_id: nodeId('PullRequest', id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issue,
    commits_url: links.commits,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${api}/repos/${repo}/pulls/comments{/number}`,
    comments_url: links.comments,
    statuses_url: `${api}/repos/${repo}/statuses/${pr.head_sha}`,
    number: pr.number,
    state: pr.state,
    locked: false,
    title: `Pull request ${pr.number}`,
    user: userJson(api, pr.author?.login ?? 'contributor', pr.author?.type ?? 'User'),
    body: null,
    labels: (pr.labels ?? []).map((name) => labelJson(api, repo, name)),
    milestone: null,
    created_at: CREATED,
    updated_at: updatedAt,
    closed_at: pr.state === 'closed' ? updatedAt : null,
    merged_at: null,
    merge_commit_sha: null,
    assignee: pr.assignees?.length ? userJson(api, pr.assignees[0]) : null,
    assignees: (pr.assignees ?? []).map((login) => userJson(api, login)),
    head: branch(pr.head_ref, pr.head_sha),
    base: branch(pr.base_ref, '0'.repeat(40)),
    _links: {
      ...Object.fromEntries(Object.entries(links).map(([k, href]) => [k, { href }])),
      statuses: { href: `${api}/repos/${repo}/statuses/${pr.head_sha}` },
      review_comments: { href: `${url}/comments` },
      review_comment: { href: `${api}/repos/${repo}/pulls/comments{/number}` },
    },
    author_association: 'CONTRIBUTOR',
    auto_merge: null,
    draft: false,
  };
}

/** A pull request as GET /repos/{owner}/{repo}/pulls/{pull_number} answers it (`pull-request`). */
export function pullRequestJson(api: string, repo: string, pr: PullRequestFacts) {
  return {
    ...pullRequestSimpleJson(api, repo, pr),
    merged: false,
    mergeable: true,
    mergeable_state: 'clean',
    merged_by: null,
    comments: 0,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: pr.commit_count ?? pr.commits?.length ?? 1,
    additions: filesOf(pr).reduce((n, f) => n + (f.additions ?? 1), 0),
    deletions: filesOf(pr).reduce((n, f) => n + (f.deletions ?? 0), 0),
    ...(pr.changed_files === null ? {} : { changed_files: pr.changed_files ?? filesOf(pr).length }),
  };
}

export interface FakeComment {
  id: number;
  repo: string;
  number: number;
  body: string;
  user: string;
  /** The App the comment was posted through (GitHub's `performed_via_github_app`), if any. */
  app_id?: number;
  created_at: string;
  updated_at: string;
}

/** An issue or pull request comment (`issue-comment`). */
export function commentJson(api: string, c: FakeComment) {
  const bot = c.user.endsWith('[bot]');
  return {
    id: c.id,
    node_id: nodeId('IssueComment', c.id),
    url: `${api}/repos/${c.repo}/issues/comments/${c.id}`,
    html_url: `${WEB}/${c.repo}/pull/${c.number}#issuecomment-${c.id}`,
    issue_url: `${api}/repos/${c.repo}/issues/${c.number}`,
    body: c.body,
    user: userJson(api, c.user, bot ? 'Bot' : 'User'),
    created_at: c.created_at,
    updated_at: c.updated_at,
    author_association: bot ? 'NONE' : 'CONTRIBUTOR',
    performed_via_github_app: c.app_id === undefined ? null : appJson(api, c.app_id),
  };
}

/** What the fake keeps of a check run. */
export interface CheckRunFacts {
  id: number;
  repo: string;
  head_sha: string;
  name: string;
  status: string;
  conclusion: string | null;
  details_url: string | null;
  output: { title: string; summary: string; text?: string };
  app_id: number;
  external_id?: string | null;
  started_at?: string | null;
  completed_at?: string | null;
  /** Annotations sent so far (GitHub appends each request's). */
  annotations_count?: number;
}

/** A check run (`check-run`), made by the App `app_id`, in a check suite of its own. */
export function checkRunJson(api: string, run: CheckRunFacts) {
  const url = `${api}/repos/${run.repo}/check-runs/${run.id}`;
  return {
    id: run.id,
    node_id: nodeId('CheckRun', run.id),
    head_sha: run.head_sha,
    external_id: run.external_id ?? null,
    url,
    html_url: `${WEB}/${run.repo}/runs/${run.id}`,
    details_url: run.details_url,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.started_at ?? null,
    completed_at: run.completed_at ?? null,
    output: {
      title: run.output.title ?? null,
      summary: run.output.summary ?? null,
      text: run.output.text ?? null,
      annotations_count: run.annotations_count ?? 0,
      annotations_url: `${url}/annotations`,
    },
    name: run.name,
    check_suite: { id: idOf(`${run.repo}@${run.head_sha}/${run.app_id}`) },
    app: appJson(api, run.app_id),
    pull_requests: [],
  };
}
