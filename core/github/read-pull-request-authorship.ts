import { withAssigneesSeen } from '../release/assignees-seen.js';
import type { AuthorshipRecord, CommitFacts, PullRequestFacts } from '../release/authorship.js';
import { coAuthorTrailers } from '../release/co-author-trailers.js';
import { gateInForce } from '../release/gate-in-force.js';
import {
  CODEOWNERS_PATHS,
  PULL_REQUEST_FILE_LIST_LIMIT,
  touchedPaths,
  type ChangedFilesFacts,
  type CodeownersFacts,
} from '../release/pull-request-files.js';
import type { ReleasePorts } from '../release/release-ports.js';
import { teamsToExpand } from '../release/teams-to-expand.js';
import type { AuthorshipReadTarget, AuthorshipStore } from './authorship-store.js';
import type { GitHubAppStore } from './github-app-store.js';
import {
  GitHubRejectedError,
  GitHubRetryableError,
  PULL_REQUEST_COMMIT_LIST_LIMIT,
  type GitHubAccess,
  type GitHubRepository,
} from './github-port.js';
import { retryDelaySeconds } from './retry-delay.js';

export interface AuthorshipDeps {
  access: GitHubAccess;
  authorship: AuthorshipStore;
  app: GitHubAppStore;
  /** The repository's gate in force: which teams its rules name (their members are read with the facts). */
  release: { store: Pick<ReleasePorts['store'], 'latestGate'> };
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

/** GitHub's own words for a failed read (GitHubRejectedError and GitHubRetryableError carry them); an error that is not GitHub's is thrown on. */
function gitHubWords(error: unknown): string {
  if (error instanceof GitHubRetryableError || error instanceof GitHubRejectedError) return error.message;
  return gitHubFailure(error);
}

/** What a read of the facts needs besides GitHub. */
interface FactsRead {
  repo: GitHubRepository;
  number: number;
  /** The gate in force: which teams to expand. */
  gate: object;
  /** The last attempt: a GitHub 5xx or rate limit on the optional facts is then stored, not retried. */
  lastAttempt: boolean;
  /** Told each optional fact that could not be read, with GitHub's words. */
  unread(what: string, reason: string): void;
}

/**
 * A fact the authorship does not depend on (files, CODEOWNERS, a team): a GitHub refusal is stored
 * as `failed(GitHub's words)`, and so is a 5xx or rate limit on the last attempt (before it, the
 * whole read is retried), so who made the pull request stays known whatever these answer.
 */
async function optionalFact<T>(read: FactsRead, what: string, fetch: () => Promise<T>, failed: (reason: string) => T): Promise<T> {
  try {
    return await fetch();
  } catch (error) {
    if (error instanceof GitHubRetryableError && !read.lastAttempt) throw error;
    const reason = gitHubWords(error);
    read.unread(what, reason);
    return failed(reason);
  }
}

/** The files the pull request changes, or why they are not all known (docs/release-gate.md, "Changed files"). */
async function readChangedFiles(read: FactsRead, total: number): Promise<ChangedFilesFacts> {
  if (total > PULL_REQUEST_FILE_LIST_LIMIT) {
    const reason = `Pull request #${read.number} changes ${total} files; GitHub lists only ${PULL_REQUEST_FILE_LIST_LIMIT}, so which paths the others are is unknown.`;
    return { status: 'file_limit', reason, total, files: [] };
  }
  return optionalFact(
    read,
    'files',
    async (): Promise<ChangedFilesFacts> => {
      const files = await read.repo.listPullRequestFiles(read.number);
      return { status: 'read', reason: null, total: Math.max(total, files.length), files };
    },
    (words) => ({
      status: 'unreadable',
      reason: `GitHub did not list the files of pull request #${read.number}: ${words}`,
      total,
      files: [],
    }),
  );
}

/** The base branch's CODEOWNERS: the first of GitHub's places that holds one. */
async function readCodeowners(read: FactsRead, baseRef: string): Promise<CodeownersFacts> {
  return optionalFact(
    read,
    'codeowners',
    async (): Promise<CodeownersFacts> => {
      for (const path of CODEOWNERS_PATHS) {
        const text = await read.repo.readFileAt(path, baseRef);
        if (text !== null) return { status: 'read', path, text };
      }
      return { status: 'absent' };
    },
    (words) => ({ status: 'unreadable', reason: `GitHub did not give the CODEOWNERS of \`${baseRef}\`: ${words}` }),
  );
}

/** The members of each team the gate's rules name, and the CODEOWNERS for the changed paths; null for a team GitHub did not show. */
async function readTeams(read: FactsRead, codeowners: CodeownersFacts, files: ChangedFilesFacts): Promise<Record<string, string[] | null>> {
  const text = codeowners.status === 'read' ? codeowners.text : null;
  const { expand, beyond } = teamsToExpand(read.gate, text, touchedPaths(files.files));
  const teams: Record<string, string[] | null> = {};
  for (const team of expand) {
    const [org, slug] = team.split('/');
    teams[team] = await optionalFact(
      read,
      `team ${team}`,
      () => read.repo.teamMembers(org, slug),
      () => null,
    );
  }
  for (const team of beyond) teams[team] = null;
  return teams;
}

/** A read whose lists GitHub answered for another head than the one it reported first: nothing of it is stored. */
interface MovedHead {
  head: string;
  moved: string;
}

/**
 * Reads everything the agent rules and the gate's rules need about a pull request whose head GitHub reports as
 * `people.head_sha`. The commits, reviews and files are separate calls, so the head may move between them (a
 * force-push): the last commit listed must be that head, and GitHub must still report it once all is read, else the
 * answer is `moved` and none of it belongs to either head (docs/github-app.md, "A head that moves during a read").
 */
async function readFacts(read: FactsRead): Promise<{ head: string; record: AuthorshipRecord } | MovedHead | null> {
  const { repo, number } = read;
  const people = await repo.pullRequestPeople(number);
  if (!people) return null;
  const head = people.head_sha;
  if (people.commit_count > PULL_REQUEST_COMMIT_LIST_LIMIT) {
    const reason = `The pull request has ${people.commit_count} commits; GitHub lists only ${PULL_REQUEST_COMMIT_LIST_LIMIT}, so who made the others is unknown.`;
    return { head, record: { number, status: 'commit_limit', reason, facts: null } };
  }
  const listed = await repo.listPullRequestCommits(number);
  const last = listed.at(-1)?.sha ?? null;
  if (last !== head) {
    const listedAs = last ? `lists ${last.slice(0, 12)} as its last commit` : 'lists no commit';
    return { head, moved: `GitHub reported ${head.slice(0, 12)} as the head of pull request #${number} but ${listedAs}.` };
  }
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
  const files = await readChangedFiles(read, people.changed_files);
  const codeowners = await readCodeowners(read, people.base_ref);
  const facts: PullRequestFacts = {
    number,
    head_sha: head,
    author: people.author,
    assignees: people.assignees,
    commits,
    reviews: reviews.map((r) => ({ ...r, permission: permissions.get(r.login) ?? 'none' })),
    base_ref: people.base_ref,
    labels: people.labels,
    files,
    codeowners,
    teams: await readTeams(read, codeowners, files),
  };
  // The reviews and files were listed after the commits: the head must not have moved meanwhile.
  const after = (await repo.pullRequestPeople(number))?.head_sha ?? null;
  if (after !== head) {
    const now = after ? `${after.slice(0, 12)} now` : 'no pull request now';
    return {
      head,
      moved: `The head of pull request #${number} moved from ${head.slice(0, 12)} while shipgate read it (GitHub reports ${now}).`,
    };
  }
  return { head, record: { number, status: 'read', reason: null, facts } };
}

/**
 * The `github_authorship` job: reads a pull request's author, assignees, commits (with their
 * co-author trailers) and reviews with the reviewers' permissions through the App's token, and
 * what the gate's rules need (its base branch, labels, changed files, the base branch's CODEOWNERS
 * and the members of the teams the rules and CODEOWNERS name: docs/release-gate.md, "Changed files"), stores
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
  const { gate } = gateInForce(repoRoot, await deps.release.store.latestGate(repoRoot));
  const unread = (what: string, reason: string) =>
    deps.log('github_pull_request_fact_unreadable', { repo_root: repoRoot, number, head_sha: target.head_sha, attempt, what, reason });
  let read: Awaited<ReturnType<typeof readFacts>>;
  try {
    read = await readFacts({ repo, number, gate, lastAttempt: attempt + 1 >= AUTHORSHIP_READ_MAX_ATTEMPTS, unread });
  } catch (error) {
    return retryOrGiveUp(gitHubFailure(error), retryDelaySeconds(error, attempt + 1));
  }
  if (!read) return unreadable(`GitHub answered 404 for pull request #${number}.`);
  // Facts listed across a force-push belong to no head: none is stored, the head asked for stays as it is
  // (pending while a read is asked for) and is read again; in the end it is left unreadable (fail closed).
  if ('moved' in read) {
    deps.log('github_authorship_head_moved', { repo_root: repoRoot, number, head_sha: target.head_sha, attempt, reason: read.moved });
    return retryOrGiveUp(read.moved, 2);
  }
  // Whoever was ever seen assigned stays so (docs/release-gate.md, "Agents on pull requests").
  const { facts } = read.record;
  const seen = facts ? withAssigneesSeen(facts, await deps.authorship.assigneesSeen(repoRoot, number)) : null;
  await deps.authorship.save(repoRoot, read.head, { ...read.record, facts: seen });
  await publish(read.head);
  // GitHub may not show a just-pushed head yet: read again shortly, and in the end say so.
  if (read.head !== target.head_sha) {
    await retryOrGiveUp(`GitHub reports ${read.head.slice(0, 12)} as the head of pull request #${number}, not this commit.`, 2);
  }
}
