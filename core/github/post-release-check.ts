import { RELEASE_GATE_CHECK_NAME } from '../release/record-evidence.js';
import type { CheckRunContent, GitHubRepository, PostedCheckRun } from './github-port.js';
import { COMMENT_MARKER } from './release-check-content.js';

export type WriteOutcome = 'created' | 'updated' | 'unchanged';

function sameCheckRun(posted: PostedCheckRun, wanted: CheckRunContent): boolean {
  return (
    posted.status === wanted.status &&
    (posted.conclusion ?? null) === wanted.conclusion &&
    posted.details_url === wanted.details_url &&
    posted.output.title === wanted.output.title &&
    posted.output.summary === wanted.output.summary
  );
}

/**
 * ONE check run named `shipgate / release gate` per commit: created the first time, updated in
 * place after, and not written at all when GitHub already shows exactly this (mutations have the
 * tighter rate limits, and a rewrite would notify watchers for nothing).
 */
export async function postCheckRun(repo: GitHubRepository, sha: string, wanted: CheckRunContent): Promise<WriteOutcome> {
  const [latest] = await repo.listCheckRuns(sha, RELEASE_GATE_CHECK_NAME);
  if (!latest) {
    await repo.createCheckRun(sha, RELEASE_GATE_CHECK_NAME, wanted);
    return 'created';
  }
  if (sameCheckRun(latest, wanted)) return 'unchanged';
  await repo.updateCheckRun(latest.id, wanted);
  return 'updated';
}

/**
 * ONE comment per pull request, found by its hidden marker on any page, edited in place, left alone
 * when unchanged. Only a comment the App posted is its own (docs/github-app.md, "Posting"): anyone
 * may write the marker, and the App, allowed to edit every comment, would otherwise fill theirs
 * with its report, which they could then edit to say SHIP.
 */
export async function postComment(repo: GitHubRepository, number: number, body: string): Promise<WriteOutcome> {
  const comments = await repo.listIssueComments(number);
  const ours = comments.find((c) => c.author !== 'other' && c.body.includes(COMMENT_MARKER));
  if (!ours) {
    await repo.createIssueComment(number, body);
    return 'created';
  }
  // GitHub stores comment bodies with CRLF line ends when edited in the browser; compare without them.
  if (ours.body.replace(/\r\n/g, '\n') === body) return 'unchanged';
  await repo.updateIssueComment(ours.id, body);
  return 'updated';
}
