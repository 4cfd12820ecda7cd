import type { AgentsConfig } from './agent-gate-fields.js';
import { agentsOfPullRequest } from './agent-identity.js';
import type { ApprovalRefusal, AuthorshipRecord, CommitFacts, PullRequestFacts } from './authorship.js';
import { reviewerRefusal } from './independent-approvals.js';

const WORDS: Record<ApprovalRefusal, string> = {
  pull_request_author: 'you opened its pull request',
  commit_author: 'you authored a commit of the change',
  committer: 'you committed part of the change',
  co_author: 'you co-authored the change',
  assignee: 'you were assigned the agent’s change',
  bot: 'a bot cannot override',
  agent: 'an agent cannot override',
  no_write_permission: 'you lack write permission on the repository',
  dismissed: '',
  withdrawn: '',
  changes_requested: '',
  stale: '',
};

/** What an override's independence is judged on (docs/release-gate.md, "Overrides"). */
export interface OverriderFacts {
  /** The caller's linked GitHub login; null when they have no link. */
  login: string | null;
  /** The pull request naming the commit (as `authorshipOfCommit` finds it), or null. */
  record: AuthorshipRecord | null;
  /** For a commit no pull request names: its authors and committers as shipgate stored them, or null. */
  storedCommit: CommitFacts | null;
  agents: AgentsConfig;
  /** Whether the caller owns an agent session that produced any of the change's commits. */
  ownsCoveringSession: boolean;
  /** Whether the caller owns a workflow or an execution bound to the commit or to any commit of its pull request. */
  ownsBoundWork: boolean;
}

/**
 * Why the caller may not override the commit's blockers, or null: the same independence as an approval
 * (`reviewerRefusal`, one definition), judged by the caller's GitHub login. Where independence cannot be
 * judged (no link, the pull request not read, a commit of which nothing is stored), it is refused: fail closed.
 */
export function overriderRefusal(f: OverriderFacts, commitSha: string): string | null {
  const not = 'You may not override this commit’s blockers: ';
  if (f.login === null) {
    return `${not}independence is judged by GitHub login, and your account has no GitHub link. Link your GitHub account first.`;
  }
  // Whoever ran the agent is not independent of what it made, however the run was governed: an agent session covering
  // a commit, or a workflow or execution bound to one (docs/release-gate.md, "Overrides").
  if (f.ownsCoveringSession) return `${not}you own the agent session that produced the change.`;
  if (f.ownsBoundWork) return `${not}you own a workflow or execution bound to the change.`;
  let pr: PullRequestFacts;
  let agentAuthored = false;
  if (f.record) {
    if (f.record.status !== 'read' || !f.record.facts) {
      return `${not}pull request #${f.record.number} has not been read from GitHub (${f.record.status}), so who made the change is unknown.`;
    }
    pr = f.record.facts;
    agentAuthored = agentsOfPullRequest(pr, f.agents).length > 0;
  } else {
    if (!f.storedCommit) {
      return `${not}no pull request names ${commitSha} and shipgate holds no record of who authored or committed it, so independence cannot be judged.`;
    }
    // A commit no pull request names: judged by its own authors, committers and co-authors.
    pr = { number: 0, head_sha: commitSha, author: { login: '', type: 'User' }, assignees: [], commits: [f.storedCommit], reviews: [] };
  }
  // Repository permission is checked before (maintain); here only who took part counts.
  const refused = reviewerRefusal(pr, f.agents, agentAuthored)({ login: f.login, type: 'User', permission: 'maintain' });
  return refused
    ? `${not}${WORDS[refused]} (@${f.login}); an override needs someone independent of the change, as an approval does.`
    : null;
}
