import type { CheckRunContent, CommitIdentity, GitHubRepository } from '../core/github/github-port.js';
import { repoPermissionOf } from '../core/github/repo-permission.js';
import { parseRepoRoot } from '../core/release/github-identifiers.js';
import { PULL_REQUEST_FILE_LIST_LIMIT } from '../core/release/pull-request-files.js';
import { GITHUB_RAW_MEDIA_TYPE, type RestOctokit } from './create-probot.js';
import { asRetryable, statusOf } from './github-errors.js';
import type { TeamMembersCache } from './team-members-cache.js';

/** Calls GitHub, turning rate limits and 5xx answers into GitHubRetryableError (the job honours Retry-After). */
async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw asRetryable(error);
  }
}

async function orNullOn404<T>(request: () => Promise<T>): Promise<T | null> {
  try {
    return await call(request);
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

/** The fields shipgate sets: no `output.text` and no annotations (docs/github-app.md, "Fitting GitHub's limits"). */
function checkRunFields(content: CheckRunContent) {
  return {
    status: content.status,
    details_url: content.details_url,
    output: { title: content.output.title, summary: content.output.summary },
    ...(content.conclusion ? { conclusion: content.conclusion, completed_at: new Date().toISOString() } : {}),
  };
}

/** A commit's git identity with the account GitHub linked to it (`author`/`committer` of the list item, null when none). */
function identity(
  git: { name?: string; email?: string } | null | undefined,
  account: { login?: string; type?: string } | null,
): CommitIdentity {
  return { login: account?.login ?? null, type: account?.type ?? null, name: git?.name ?? null, email: git?.email ?? null };
}

/** Where team member lists are remembered, and the credentials' name in its keys (what they may see). */
export interface TeamMembersScope {
  cache: TeamMembersCache;
  /** e.g. `installation:77` or `token`. */
  credentials: string;
}

/**
 * Who posts the App's comment: the App (its id, matched to `performed_via_github_app`), or the
 * user of GITHUB_TOKEN, looked up when needed (null while GitHub does not say: an installation
 * token has no user). docs/github-app.md, "Posting".
 */
export type CommentPoster = { appId: number } | { tokenLogin: () => Promise<string | null> };

/**
 * The GitHubRepository port over an authenticated octokit. The App's id narrows check run lists
 * to our App's; `teams` remembers team member lists briefly (without it every lookup asks GitHub).
 */
export function octokitGitHubRepository(
  octokit: RestOctokit,
  repoRoot: string,
  poster: CommentPoster,
  teams?: TeamMembersScope,
): GitHubRepository {
  const appId = 'appId' in poster ? poster.appId : null;
  const where = parseRepoRoot(repoRoot);
  const readTeam = async (org: string, slug: string) => {
    const found = await orNullOn404(() => octokit.paginate(octokit.rest.teams.listMembersInOrg, { org, team_slug: slug, per_page: 100 }));
    return found && found.map((m) => m.login.toLowerCase());
  };
  return {
    listIssueComments: (number) =>
      call(async () => {
        const comments = await octokit.paginate(octokit.rest.issues.listComments, { ...where, issue_number: number, per_page: 100 });
        const login = 'tokenLogin' in poster ? await poster.tokenLogin() : null;
        const author = (c: (typeof comments)[number]) =>
          appId !== null
            ? c.performed_via_github_app?.id === appId
              ? 'us'
              : 'other'
            : login === null
              ? 'unknown'
              : c.user?.login?.toLowerCase() === login && !c.performed_via_github_app
                ? 'us'
                : 'other';
        return comments.map((c) => ({ id: c.id, body: c.body ?? '', author: author(c) }));
      }),
    createIssueComment: (number, body) =>
      call(async () => {
        await octokit.rest.issues.createComment({ ...where, issue_number: number, body });
      }),
    updateIssueComment: (commentId, body) =>
      call(async () => {
        await octokit.rest.issues.updateComment({ ...where, comment_id: commentId, body });
      }),
    listCheckRuns: (sha, name) =>
      call(async () => {
        const { data } = await octokit.rest.checks.listForRef({
          ...where,
          ref: sha,
          check_name: name,
          filter: 'latest',
          per_page: 100,
          ...(appId !== null ? { app_id: appId } : {}),
        });
        return data.check_runs.map((run) => ({
          id: run.id,
          status: run.status as CheckRunContent['status'],
          conclusion: (run.conclusion ?? null) as CheckRunContent['conclusion'],
          details_url: run.details_url ?? '',
          output: { title: run.output?.title ?? '', summary: run.output?.summary ?? '' },
        }));
      }),
    createCheckRun: (sha, name, content) =>
      call(async () => {
        await octokit.rest.checks.create({ ...where, name, head_sha: sha, ...checkRunFields(content) });
      }),
    updateCheckRun: (id, content) =>
      call(async () => {
        await octokit.rest.checks.update({ ...where, check_run_id: id, ...checkRunFields(content) });
      }),
    async readDefaultBranchFile(path) {
      const { data: repository } = await call(() => octokit.rest.repos.get(where));
      return this.readFileAt(path, repository.default_branch);
    },
    async readFileAt(path, ref) {
      const found = await orNullOn404(() =>
        octokit.rest.repos.getContent({ ...where, path, ref, headers: { accept: GITHUB_RAW_MEDIA_TYPE } }),
      );
      if (!found) return null;
      const raw: unknown = found.data;
      if (typeof raw === 'string') return raw;
      if (raw instanceof ArrayBuffer) return new TextDecoder().decode(raw);
      return null; // a directory: there is no file at this path
    },
    async permissionOf(username) {
      const found = await orNullOn404(() => octokit.rest.repos.getCollaboratorPermissionLevel({ ...where, username }));
      // `permission` is the classic level (maintain reads as write, triage as read), `role_name` the exact role.
      return repoPermissionOf(found?.data.permission, found?.data.role_name);
    },
    async permissionOfAccount(githubUserId) {
      // GitHub's collaborator endpoint takes a login: ask for the account's login now (GET /user/{account_id}), then by it.
      const account = await orNullOn404(() => octokit.rest.users.getById({ account_id: githubUserId }));
      return account ? this.permissionOf(account.data.login) : 'none';
    },
    async visibility() {
      const found = await orNullOn404(() => octokit.rest.repos.get(where));
      return found && !found.data.private && (found.data.visibility ?? 'public') === 'public' ? 'public' : 'private';
    },
    async pullRequest(number) {
      const found = await orNullOn404(() => octokit.rest.pulls.get({ ...where, pull_number: number }));
      if (!found) return null;
      const pr = found.data;
      return {
        number,
        head_sha: pr.head.sha,
        head_ref: pr.head.ref,
        base_ref: pr.base.ref,
        state: pr.state === 'open' ? 'open' : 'closed',
      };
    },
    async pullRequestPeople(number) {
      const found = await orNullOn404(() => octokit.rest.pulls.get({ ...where, pull_number: number }));
      if (!found) return null;
      const pr = found.data;
      return {
        head_sha: pr.head.sha,
        state: pr.state === 'open' ? 'open' : 'closed',
        author: { login: pr.user.login, type: pr.user.type },
        assignees: (pr.assignees ?? []).map((a) => a.login),
        commit_count: pr.commits,
        base_ref: pr.base.ref,
        labels: pr.labels.map((l) => l.name),
        // GitHub always gives the count; an answer without it counts the listed files instead (not "undefined files").
        changed_files: Number.isSafeInteger(pr.changed_files) ? pr.changed_files : 0,
      };
    },
    listPullRequestCommits: (number) =>
      call(async () => {
        const commits = await octokit.paginate(octokit.rest.pulls.listCommits, { ...where, pull_number: number, per_page: 100 });
        return commits.map((c) => ({
          sha: c.sha,
          message: c.commit.message,
          author: identity(c.commit.author, c.author),
          committer: identity(c.commit.committer, c.committer),
        }));
      }),
    listPullRequestReviews: (number) =>
      call(async () => {
        const reviews = await octokit.paginate(octokit.rest.pulls.listReviews, { ...where, pull_number: number, per_page: 100 });
        return reviews.map((r) => ({
          id: r.id,
          login: r.user?.login ?? 'ghost',
          type: r.user?.type ?? 'User',
          state: r.state,
          commit_id: r.commit_id ?? null,
          submitted_at: r.submitted_at ?? null,
        }));
      }),
    listPullRequestFiles: (number) =>
      call(async () => {
        let listed = 0;
        const files = await octokit.paginate(
          octokit.rest.pulls.listFiles,
          { ...where, pull_number: number, per_page: 100 },
          // GitHub lists no file past the limit: stop there, whatever its Link header says.
          (response, done) => {
            listed += response.data.length;
            if (listed >= PULL_REQUEST_FILE_LIST_LIMIT) done();
            return response.data;
          },
        );
        return files.slice(0, PULL_REQUEST_FILE_LIST_LIMIT).map((f) => ({
          path: f.filename,
          previous_path: f.previous_filename ?? null,
          status: f.status,
          additions: f.additions,
          deletions: f.deletions,
        }));
      }),
    teamMembers: (org, slug) =>
      teams ? teams.cache.members(`${teams.credentials}\0${org}/${slug}`.toLowerCase(), () => readTeam(org, slug)) : readTeam(org, slug),
  };
}
