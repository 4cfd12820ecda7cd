import type { PullRequestFacts } from '../../core/release/authorship.js';
import { withAssigneesSeen } from '../../core/release/assignees-seen.js';
import { DEFAULT_GATE } from '../../core/release/gate.js';
import { judgeApprovals } from '../../core/release/independent-approvals.js';

// docs/release-gate.md, "Agents on pull requests": an agent pull request's assignee stays excluded once unassigned.
const HEAD = 'b'.repeat(40);
const copilot = { login: 'Copilot', type: 'Bot', name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com' };
const read: PullRequestFacts = {
  number: 8,
  head_sha: HEAD,
  author: { login: 'Copilot', type: 'Bot' },
  assignees: ['Carol'],
  commits: [{ sha: HEAD, author: copilot, committer: copilot, coauthors: [] }],
  reviews: [{ id: 1, login: 'alice', type: 'User', state: 'APPROVED', commit_id: HEAD, submitted_at: null, permission: 'write' }],
};

describe('assignees seen before', () => {
  it('keeps whoever an earlier read saw assigned and is no longer, once each, case-insensitively', () => {
    expect(withAssigneesSeen(read, ['alice', 'ALICE', 'carol', 'bob']).former_assignees).toEqual(['alice', 'bob']);
    expect(withAssigneesSeen(read, []).former_assignees).toEqual([]);
  });

  it('a former assignee’s approval of an agent’s pull request is refused as an assignee’s', () => {
    const judge = (facts: PullRequestFacts) => judgeApprovals(facts, DEFAULT_GATE.agents, DEFAULT_GATE.agent_changes, true)[0];
    expect(judge(read)).toMatchObject({ login: 'alice', counted: true });
    expect(judge(withAssigneesSeen(read, ['alice']))).toMatchObject({ login: 'alice', counted: false, reason: 'assignee' });
  });
});
