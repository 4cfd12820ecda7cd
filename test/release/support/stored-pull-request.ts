import type { Knex } from 'knex';
import type { CommitFacts, PullRequestFacts } from '../../../core/release/authorship.js';

/** A person's GitHub identity as a commit names it. */
export const personNamed = (login: string): CommitFacts['author'] => ({ login, type: 'User', name: login, email: `${login}@example.com` });

/**
 * A pull request shipgate has read from GitHub (the row the `github_authorship` job stores), whose
 * only commit is `head`: opened by `author` and, unless `commit` says otherwise, authored and
 * committed by them, with `labels` and one changed file.
 */
export async function storeReadPullRequest(
  db: Knex,
  repo: string,
  pr: { number: number; head: string; author: string; authorType?: 'User' | 'Bot'; labels?: string[]; commit?: Partial<CommitFacts> },
): Promise<void> {
  const person = personNamed(pr.author);
  const facts: PullRequestFacts = {
    number: pr.number,
    head_sha: pr.head,
    author: { login: pr.author, type: pr.authorType ?? 'User' },
    assignees: [],
    commits: [{ sha: pr.head, author: person, committer: person, coauthors: [], ...pr.commit }],
    reviews: [],
    base_ref: 'main',
    labels: pr.labels ?? [],
    files: {
      status: 'read',
      reason: null,
      total: 1,
      files: [{ path: 'src/app.ts', previous_path: null, status: 'modified', additions: 1, deletions: 0 }],
    } as PullRequestFacts['files'],
  };
  await db('pull_request_authorship').insert({
    repo_root: repo,
    commit_sha: pr.head,
    number: pr.number,
    status: 'read',
    facts: JSON.stringify(facts),
    commit_shas: [pr.head],
  });
}
