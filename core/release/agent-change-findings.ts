import { hasAgentRules } from './agent-gate-fields.js';
import { agentsOfCommit, agentsOfPullRequest, identitiesOfCommit } from './agent-identity.js';
import type { AuthorshipBlock, AuthorshipRecord, GovernedBy } from './authorship.js';
import { blocker, type Blocker, type Findings } from './blocker.js';
import type { BoundWorkflow } from './bound-workflow.js';
import { changedFilesSummary } from './changed-files-summary.js';
import type { Gate } from './gate.js';
import { isGovernedWork, outcomeOfWorkflow } from './governed-work.js';
import { judgeApprovals } from './independent-approvals.js';
import { coveringSession, type SessionCoverageFacts } from './session-coverage.js';

/** What the decision knows of who made a commit: the stored authorship when a pull request names it as its head. */
export interface CommitAuthorship {
  /** null: no open pull request or merge group names this commit. */
  record: AuthorshipRecord | null;
  /** The open pull requests whose head the commit is (more than one: `pull_request_ambiguous`); absent: none recorded. */
  openPullRequests?: readonly number[];
  /** Commits of the pull request (other than the head) with governed work bound to them (`governedCommits`). */
  governedCommits: string[];
  /** When the pull request's commits arrived and the repository's agent sessions that may cover them; absent: none read. */
  sessions?: SessionCoverageFacts;
}

export const NO_PULL_REQUEST: CommitAuthorship = { record: null, governedCommits: [] };

const short = (sha: string) => sha.slice(0, 12);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function unknownBlock(status: AuthorshipBlock['status'], number: number | null): AuthorshipBlock {
  return { status, pull_request: number, agent_authored: null, agents: [], commits: [], approvals: [] };
}

/**
 * The gate's rules for agents' changes (docs/release-gate.md, "Agents on pull requests"): who
 * made the commit's pull request, whether each agent-authored commit is covered by governed work,
 * and how many independent human approvals the head has. A commit no pull request names is judged
 * by the rules for people, and its authorship is reported unknown.
 */
export function agentChangeFindings(
  gate: Gate,
  commitSha: string,
  workflows: BoundWorkflow[],
  authorship: CommitAuthorship,
): Findings & { authorship: AuthorshipBlock } {
  const rules = gate.agent_changes;
  const { record } = authorship;
  if (!record) return { requirements: [], blockers: [], authorship: unknownBlock('no_pull_request', null) };
  const applies = hasAgentRules(rules);
  if (record.status !== 'read' || !record.facts) {
    const block = unknownBlock(record.status, record.number);
    if (!applies) return { requirements: [], blockers: [], authorship: block };
    const pending = record.status === 'pending';
    const found = blocker(
      'agent_provenance_unknown',
      `authorship:${record.status}`,
      pending
        ? `Who made pull request #${record.number} has not been read from GitHub yet.`
        : `Who made pull request #${record.number} is unknown: ${record.reason ?? 'GitHub could not be read'}`,
      pending
        ? 'Wait for shipgate to read the pull request’s commits and reviews, then ask for the decision again.'
        : 'Fix what stops shipgate reading the pull request (its App installation, GitHub’s answer, or split a pull request over 250 commits), then comment `/shipgate recheck`.',
    );
    const requirement = {
      policy: 'agent_changes',
      requirement: 'Who made the pull request is known.',
      satisfied: false,
      remediation: found.remediation_suggestion,
    };
    return { requirements: [requirement], blockers: [found], authorship: block };
  }
  const pr = record.facts;
  const agents = agentsOfPullRequest(pr, gate.agents);
  const agentAuthored = agents.length > 0;
  const approvals = judgeApprovals(pr, gate.agents, rules, agentAuthored);
  const governed = new Set(authorship.governedCommits);
  if (workflows.some((w) => isGovernedWork(outcomeOfWorkflow(w)))) governed.add(commitSha);
  // An agent's commit is covered by a session (named), else by work bound to it.
  const governedBy = (sha: string): GovernedBy | null =>
    (authorship.sessions && coveringSession(sha, authorship.sessions)) ?? (governed.has(sha) ? { kind: 'bound_work' } : null);
  const commits = pr.commits.map((c) => {
    const agentsOf = agentsOfCommit(c, gate.agents);
    return { sha: c.sha, agents: agentsOf, identities: identitiesOfCommit(c), governed_by: agentsOf.length > 0 ? governedBy(c.sha) : null };
  });
  const block: AuthorshipBlock = {
    status: 'read',
    pull_request: pr.number,
    agent_authored: agentAuthored,
    agents,
    commits: commits.map((c) => ({
      sha: c.sha,
      agent_authored: c.agents.length > 0,
      identities: c.identities,
      governed_by: c.governed_by,
    })),
    approvals,
    changed_files: changedFilesSummary(pr),
  };
  if (!agentAuthored || !applies) return { requirements: [], blockers: [], authorship: block };

  const blockers: Blocker[] = [];
  if (rules.require_governed_work) {
    for (const c of commits) {
      if (c.agents.length === 0 || c.governed_by) continue;
      blockers.push(
        blocker(
          'agent_change_ungoverned',
          `commit:${c.sha}`,
          `Commit ${short(c.sha)} of pull request #${pr.number} was made by ${c.agents.join(', ')}, and no governed work covers it.`,
          'Run a workflow or execution bound to this commit (repo_root and commit_sha), or have the agent push it while a compliant agent session of this repository (and its branch) is open.',
        ),
      );
    }
  }
  const counted = approvals.filter((a) => a.counted).length;
  const missing = rules.required_human_approvals - counted;
  if (missing > 0) {
    blockers.push(
      blocker(
        'human_approval_missing',
        `pull_request:${pr.number}`,
        `Pull request #${pr.number} was made with ${agents.join(', ')}: it needs ${plural(rules.required_human_approvals, 'independent human approval')} of head ${short(pr.head_sha)}, has ${counted}, so ${missing} more.`,
        'A person with write permission who is not an author, committer, co-author or (for an agent’s pull request) assignee of it approves the current head on GitHub.',
      ),
    );
  }
  const ungoverned = blockers.find((b) => b.code === 'agent_change_ungoverned');
  const unapproved = blockers.find((b) => b.code === 'human_approval_missing');
  const requirements: Findings['requirements'] = [];
  if (rules.require_governed_work) {
    requirements.push({
      policy: 'agent_changes',
      requirement: 'Every agent-authored commit of the pull request is covered by governed work.',
      satisfied: !ungoverned,
      remediation: ungoverned?.remediation_suggestion ?? null,
    });
  }
  if (rules.required_human_approvals > 0) {
    requirements.push({
      policy: 'agent_changes',
      requirement: `At least ${plural(rules.required_human_approvals, 'independent human approval')} of the head.`,
      satisfied: !unapproved,
      remediation: unapproved?.remediation_suggestion ?? null,
    });
  }
  return { requirements, blockers, authorship: block };
}
