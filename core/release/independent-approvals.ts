import type { AgentChangesConfig, AgentsConfig } from './agent-gate-fields.js';
import { agentNameOf, loginOf } from './agent-identity.js';
import type { ApprovalRefusal, JudgedApproval, PullRequestFacts, ReviewFacts } from './authorship.js';

const DECIDING = new Set(['APPROVED', 'CHANGES_REQUESTED', 'DISMISSED']);
const WRITERS = new Set(['admin', 'maintain', 'write']);

/**
 * The people a pull request names, by lower-case login, with their first role. Co-authors carry
 * only a name and an e-mail: they are matched to a login through GitHub's noreply address or
 * through a commit whose author or committer GitHub linked to that e-mail; any other co-author
 * cannot be matched to a reviewer (docs/release-gate.md, "Agents on pull requests").
 */
function participants(pr: PullRequestFacts, agentAuthored: boolean): Map<string, ApprovalRefusal> {
  const roles = new Map<string, ApprovalRefusal>();
  const add = (login: string | null, role: ApprovalRefusal) => {
    if (login && !roles.has(login.toLowerCase())) roles.set(login.toLowerCase(), role);
  };
  const loginByEmail = new Map<string, string>();
  for (const c of pr.commits) {
    for (const who of [c.author, c.committer]) if (who.login && who.email) loginByEmail.set(who.email.toLowerCase(), who.login);
  }
  add(pr.author.login, 'pull_request_author');
  for (const c of pr.commits) add(loginOf(c.author), 'commit_author');
  for (const c of pr.commits) add(loginOf(c.committer), 'committer');
  for (const c of pr.commits) {
    for (const co of c.coauthors) add(loginOf(co) ?? loginByEmail.get(co.email?.toLowerCase() ?? '') ?? null, 'co_author');
  }
  // Copilot's coding agent assigns the person who asked it: for an agent's pull request they are not independent, and
  // stay so once unassigned (as on GitHub): anyone shipgate ever saw assigned to it (assignees-seen.ts).
  if (agentAuthored) for (const login of [...pr.assignees, ...(pr.former_assignees ?? [])]) add(login, 'assignee');
  return roles;
}

/**
 * Why a reviewer could not give an independent approval whatever they reviewed: a bot or an agent, named in the pull
 * request, or without write permission; null for an independent person. Shared by the approvals judged here and by
 * the gate's rules, whose disapproval counts only from someone who could approve (docs/release-gate.md, "Rules").
 */
export function reviewerRefusal(
  pr: PullRequestFacts,
  agents: AgentsConfig,
  agentAuthored: boolean,
): (reviewer: Pick<ReviewFacts, 'login' | 'type' | 'permission'>) => ApprovalRefusal | null {
  const roles = participants(pr, agentAuthored);
  return (reviewer) => {
    if (reviewer.type === 'Bot') return 'bot';
    if (agentNameOf({ login: reviewer.login, type: reviewer.type }, agents)) return 'agent';
    const role = roles.get(reviewer.login.toLowerCase());
    if (role) return role;
    return WRITERS.has(reviewer.permission) ? null : 'no_write_permission';
  };
}

const order = (a: ReviewFacts, b: ReviewFacts) => (a.submitted_at ?? '').localeCompare(b.submitted_at ?? '') || a.id - b.id;

/**
 * Each reviewer's deciding review (the latest APPROVED, CHANGES_REQUESTED or DISMISSED; a
 * COMMENTED review changes nothing, as on GitHub) and whether it counts as an independent human
 * approval of the head: a person with write permission or more, not an agent or bot, named
 * nowhere in the pull request, approving the current head when `dismiss_stale_approvals`.
 */
export function judgeApprovals(
  pr: PullRequestFacts,
  agents: AgentsConfig,
  rules: AgentChangesConfig,
  agentAuthored: boolean,
): JudgedApproval[] {
  const refusal = reviewerRefusal(pr, agents, agentAuthored);
  const byReviewer = new Map<string, ReviewFacts[]>();
  for (const review of [...pr.reviews].sort(order)) {
    if (!DECIDING.has(review.state)) continue;
    const key = review.login.toLowerCase();
    byReviewer.set(key, [...(byReviewer.get(key) ?? []), review]);
  }
  return [...byReviewer.values()].map((reviews) => {
    const last = reviews[reviews.length - 1];
    const judged = (reason: ApprovalRefusal | null): JudgedApproval => ({
      login: last.login,
      state: last.state,
      commit_sha: last.commit_id,
      counted: reason === null,
      reason,
    });
    if (last.state === 'DISMISSED') return judged('dismissed');
    if (last.state === 'CHANGES_REQUESTED') return judged(reviews.some((r) => r.state === 'APPROVED') ? 'withdrawn' : 'changes_requested');
    const refused = refusal(last);
    if (refused) return judged(refused);
    if (rules.dismiss_stale_approvals && last.commit_id !== pr.head_sha) return judged('stale');
    return judged(null);
  });
}
