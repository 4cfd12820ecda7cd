import type { AuthorshipRecord, CommitFacts, PullRequestFacts } from '../release/authorship.js';
import { coAuthorTrailers } from '../release/co-author-trailers.js';
import type { AuthorshipReadTarget, AuthorshipStore } from './authorship-store.js';
import type { GitHubAppStore } from './github-app-store.js';
import { GitHubRetryableError, PULL_REQUEST_COMMIT_LIST_LIMIT, type GitHubAccess, type GitHubRepository } from './github-port.js';
import { retryDelaySeconds } from './retry-delay.js';

export interface AuthorshipDeps {
  access: GitHubAccess;
  authorship: AuthorshipStore;
  app: GitHubAppStore;
  log(event: string, fields: Record<string, unknown>): void;
}

/** Reads retried (a GitHub 5xx or rate limit, or a head GitHub does not show yet) before the head is left unreadable. */
export const AUTHORSHIP_READ_MAX_ATTEMPTS = 5;

/** What GitHub answered, for a reason people read; an error that is not GitHub's is thrown on. */
function gitHubFailure(error: unknown): string {
  if (error instanceof GitHubRetryableError) return error.message;
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return `GitHub answered ${status} when shipgate read the pull request.`;
  throw error;
}

/** Reads everything the agent rules need about a pull request whose head GitHub reports as `people.head_sha`. */
async function readFacts(repo: GitHubRepository, number: number): Promise<{ head: string; record: AuthorshipRecord } | null> {
  const people = await repo.pullRequestPeople(number);
  if (!people) return null;
  const head = people.head_sha;
  if (people.commit_count > PULL_REQUEST_COMMIT_LIST_LIMIT) {
    const reason = `The pull request has ${people.commit_count} commits; GitHub lists only ${PULL_REQUEST_COMMIT_LIST_LIMIT}, so who made the others is unknown.`;
    return { head, record: { number, status: 'commit_limit', reason, facts: null } };
  }
  const listed = await repo.listPullRequestCommits(number);
  const commits: CommitFacts[] = listed.map((c) => ({
    sha: c.sha,
    author: c.author,
    committer: c.committer,
    coauthors: coAuthorTrailers(c.message),
  }));
  const reviews = await repo.listPullRequestReviews(number);
  const permissions = new Map<string, string>();
  for (const login of new Set(reviews.filter((r) => r.type !== 'Bot').map((r) => r.login))) {
    permissions.set(login, await repo.permissionOf(login));
  }
  const facts: PullRequestFacts = {
    number,
    head_sha: head,
    author: people.author,
    assignees: people.assignees,
    commits,
    reviews: reviews.map((r) => ({ ...r, permission: permissions.get(r.login) ?? 'none' })),
  };
  return { head, record: { number, status: 'read', reason: null, facts } };
}

/**
 * The `github_authorship` job: reads a pull request's author, assignees, commits (with their
 * co-author trailers) and reviews with the reviewers' permissions through the App's token, stores
 * them for the head GitHub reports, and schedules the evaluation of the head and of the merge
 * groups built for it (the pull request events leave that to this job, so each posts once). What cannot be read is
 * stored as such, so the decision fails closed and says why (docs/release-gate.md, "Agents on
 * pull requests"); a GitHub 5xx or rate limit is retried first.
 */
export async function readPullRequestAuthorship(deps: AuthorshipDeps, target: AuthorshipReadTarget, attempt: number): Promise<void> {
  const { repo_root: repoRoot, number } = target;
  const schedule = (sha: string) =>
    deps.app.schedulePublish({
      repo_root: repoRoot,
      commit_sha: sha,
      installation_id: target.installation_id,
      delivery_id: target.delivery_id,
    });
  // A merge group built for this head is judged by the same authorship, so it is evaluated again too.
  const publish = async (sha: string) => {
    await schedule(sha);
    for (const group of await deps.app.mergeGroupsOf(repoRoot, sha)) await schedule(group);
  };
  const unreadable = async (reason: string) => {
    deps.log('github_authorship_unreadable', { repo_root: repoRoot, number, head_sha: target.head_sha, attempt, reason });
    await deps.authorship.save(repoRoot, target.head_sha, { number, status: 'unreadable', reason, facts: null });
    await publish(target.head_sha);
  };
  const retryOrGiveUp = async (reason: string, delay: number | null) => {
    if (delay !== null && attempt + 1 < AUTHORSHIP_READ_MAX_ATTEMPTS) {
      await deps.authorship.retryRead(target, attempt + 1, delay);
      // Meanwhile the head is evaluated as it stands (its authorship pending, a wait).
      await publish(target.head_sha);
      return;
    }
    await unreadable(reason);
  };
  const repo = await deps.access.repository(repoRoot, target.installation_id);
  if (!repo) return unreadable((await deps.access.whyNot()) ?? 'The App is not installed on the repository.');
  let read: Awaited<ReturnType<typeof readFacts>>;
  try {
    read = await readFacts(repo, number);
  } catch (error) {
    return retryOrGiveUp(gitHubFailure(error), retryDelaySeconds(error, attempt + 1));
  }
  if (!read) return unreadable(`GitHub answered 404 for pull request #${number}.`);
  await deps.authorship.save(repoRoot, read.head, read.record);
  await publish(read.head);
  // GitHub may not show a just-pushed head yet: read again shortly, and in the end say so.
  if (read.head !== target.head_sha) {
    await retryOrGiveUp(`GitHub reports ${read.head.slice(0, 12)} as the head of pull request #${number}, not this commit.`, 2);
  }
}
