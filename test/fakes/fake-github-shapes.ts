import { createHash } from 'node:crypto';

/**
 * GitHub's JSON objects as the REST API sends them, with every field GitHub's description requires
 * and the URLs GitHub derives from names, so the fake's answers validate (see fake-github-server.ts).
 * `api` is the fake's API base (…/api/v3); web pages live under WEB.
 */
export const WEB = 'https://github.example';

/** When the fake's world began: creation dates of users, repositories, apps. */
export const CREATED = '2024-01-01T00:00:00Z';

/** The user of a personal access token (`ghp_…`, as the fake's GITHUB_TOKEN is): what `GET /user` answers for it, and who its comments are by. */
export const TOKEN_USER = 'release-bot';
/** Whether a request is made with a personal access token, not an App's or a user's OAuth token. */
export const withPersonalToken = (authorization: string | undefined) => /^(token|bearer)\s+ghp_/i.test(authorization ?? '');

/** A stable positive id for a name, as GitHub ids are stable for a login or repository. */
export function idOf(name: string): number {
  return parseInt(createHash('sha1').update(name.toLowerCase()).digest('hex').slice(0, 7), 16);
}

export const nodeId = (kind: string, id: number) => Buffer.from(`${kind}:${id}`).toString('base64');

export function userJson(api: string, login: string, type: 'User' | 'Bot' | 'Organization' = 'User') {
  const id = idOf(login);
  const url = `${api}/users/${encodeURIComponent(login)}`;
  return {
    login,
    id,
    node_id: nodeId(type, id),
    avatar_url: `${WEB}/avatars/u/${id}`,
    gravatar_id: '',
    url,
    html_url: `${WEB}/${login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type,
    site_admin: false,
  };
}

/** The repository's API URLs, GitHub's templates included, by field name. */
const REPO_URLS: Record<string, string> = {
  archive_url: '/{archive_format}{/ref}',
  assignees_url: '/assignees{/user}',
  blobs_url: '/git/blobs{/sha}',
  branches_url: '/branches{/branch}',
  collaborators_url: '/collaborators{/collaborator}',
  comments_url: '/comments{/number}',
  commits_url: '/commits{/sha}',
  compare_url: '/compare/{base}...{head}',
  contents_url: '/contents/{+path}',
  contributors_url: '/contributors',
  deployments_url: '/deployments',
  downloads_url: '/downloads',
  events_url: '/events',
  forks_url: '/forks',
  git_commits_url: '/git/commits{/sha}',
  git_refs_url: '/git/refs{/sha}',
  git_tags_url: '/git/tags{/sha}',
  hooks_url: '/hooks',
  issue_comment_url: '/issues/comments{/number}',
  issue_events_url: '/issues/events{/number}',
  issues_url: '/issues{/number}',
  keys_url: '/keys{/key_id}',
  labels_url: '/labels{/name}',
  languages_url: '/languages',
  merges_url: '/merges',
  milestones_url: '/milestones{/number}',
  notifications_url: '/notifications{?since,all,participating}',
  pulls_url: '/pulls{/number}',
  releases_url: '/releases{/id}',
  stargazers_url: '/stargazers',
  statuses_url: '/statuses/{sha}',
  subscribers_url: '/subscribers',
  subscription_url: '/subscription',
  tags_url: '/tags',
  teams_url: '/teams',
  trees_url: '/git/trees{/sha}',
};

/** A repository as GET /repos/{owner}/{repo} answers it (a superset of the shorter `repository`). */
export function repositoryJson(api: string, fullName: string, options: { id?: number; defaultBranch?: string; private?: boolean } = {}) {
  const [owner, name] = fullName.split('/');
  const id = options.id ?? idOf(fullName);
  const url = `${api}/repos/${fullName}`;
  const html = `${WEB}/${fullName}`;
  return {
    id,
    node_id: nodeId('Repository', id),
    name,
    full_name: fullName,
    owner: userJson(api, owner, 'Organization'),
    private: options.private ?? false,
    html_url: html,
    description: null,
    fork: false,
    url,
    ...Object.fromEntries(Object.entries(REPO_URLS).map(([field, path]) => [field, `${url}${path}`])),
    git_url: `git://github.example/${fullName}.git`,
    ssh_url: `git@github.example:${fullName}.git`,
    clone_url: `${html}.git`,
    svn_url: html,
    mirror_url: null,
    homepage: null,
    language: null,
    license: null,
    size: 1,
    default_branch: options.defaultBranch ?? 'main',
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    subscribers_count: 0,
    network_count: 0,
    open_issues: 0,
    open_issues_count: 0,
    has_issues: true,
    has_projects: false,
    has_wiki: false,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    archived: false,
    disabled: false,
    visibility: options.private ? 'private' : 'public',
    pushed_at: CREATED,
    created_at: CREATED,
    updated_at: CREATED,
  };
}

/** The GitHub App `appId` (an `integration`), owned by the organisation `owner`. */
export function appJson(api: string, appId: number, owner = 'shipgate-dev') {
  return {
    id: appId,
    slug: 'shipgate',
    node_id: nodeId('Integration', appId),
    owner: userJson(api, owner, 'Organization'),
    name: 'shipgate',
    description: 'Release gate',
    external_url: 'https://shipgate.example',
    html_url: `${WEB}/apps/shipgate`,
    created_at: CREATED,
    updated_at: CREATED,
    permissions: { checks: 'write', pull_requests: 'write', issues: 'write', contents: 'read', metadata: 'read' },
    events: ['check_run', 'pull_request', 'deployment_protection_rule'],
  };
}

export function installationJson(api: string, id: number, appId: number, login: string, suspendedAt?: string) {
  const app = appJson(api, appId);
  // GET /app/installations describes the account as a user *and* an enterprise (allOf, where the
  // `installation` schema says anyOf), so it carries the enterprise's required fields as well.
  const account = { ...userJson(api, login, 'Organization'), name: login, slug: login, created_at: CREATED, updated_at: CREATED };
  return {
    id,
    account,
    repository_selection: 'all',
    access_tokens_url: `${api}/app/installations/${id}/access_tokens`,
    repositories_url: `${api}/installation/repositories`,
    html_url: `${WEB}/organizations/${login}/settings/installations/${id}`,
    app_id: appId,
    app_slug: app.slug,
    target_id: account.id,
    target_type: 'Organization',
    permissions: app.permissions,
    events: app.events,
    created_at: CREATED,
    updated_at: CREATED,
    single_file_name: null,
    suspended_by: suspendedAt ? userJson(api, 'octo-admin', 'User') : null,
    suspended_at: suspendedAt ?? null,
  };
}
