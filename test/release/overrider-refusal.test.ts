import type { PullRequestFacts } from '../../core/release/authorship.js';
import { DEFAULT_GATE } from '../../core/release/gate.js';
import { overriderRefusal, type OverriderFacts } from '../../core/release/overrider-refusal.js';

// docs/release-gate.md, "Overrides": the same independence as an approval, judged by the caller's GitHub login.
const HEAD = 'a'.repeat(40);
const copilot = { login: 'Copilot', type: 'Bot', name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com' };
const agentPr: PullRequestFacts = {
  number: 5,
  head_sha: HEAD,
  author: { login: 'Copilot', type: 'Bot' },
  assignees: ['dana-asked'],
  commits: [{ sha: HEAD, author: copilot, committer: copilot, coauthors: [{ name: 'Eve', email: 'eve-co@users.noreply.github.com' }] }],
  reviews: [],
};
const facts = (over: Partial<OverriderFacts>): OverriderFacts => ({
  login: 'ana',
  record: { number: 5, status: 'read', reason: null, facts: agentPr },
  storedCommit: null,
  agents: DEFAULT_GATE.agents,
  ownsCoveringSession: false,
  ownsBoundWork: false,
  ...over,
});

describe('who may override a commit’s blockers', () => {
  it('refuses the agent change’s assignee, a co-author, the owner of the covering agent session or of work bound to the change, and a caller without a GitHub link', () => {
    expect(overriderRefusal(facts({ login: 'dana-asked' }), HEAD)).toMatch(/assigned the agent’s change/);
    expect(overriderRefusal(facts({ login: 'eve-co' }), HEAD)).toMatch(/co-authored/);
    expect(overriderRefusal(facts({ ownsCoveringSession: true }), HEAD)).toMatch(/own the agent session/);
    expect(overriderRefusal(facts({ ownsBoundWork: true }), HEAD)).toMatch(/own a workflow or execution bound to the change/);
    expect(overriderRefusal(facts({ login: null }), HEAD)).toMatch(/no GitHub link/);
  });

  it('refuses where the pull request was not read; judges a commit no pull request names by its stored author and committer', () => {
    expect(overriderRefusal(facts({ record: { number: 5, status: 'pending', reason: null, facts: null } }), HEAD)).toMatch(/not been read/);
    const person = { login: 'bob', type: 'User', name: 'Bob', email: 'bob@example.com' };
    const stored = { sha: HEAD, author: person, committer: { ...person, login: 'web-flow' }, coauthors: [] };
    expect(overriderRefusal(facts({ record: null, storedCommit: stored, login: 'bob' }), HEAD)).toMatch(/authored a commit/);
    expect(overriderRefusal(facts({ record: null, storedCommit: stored }), HEAD)).toBeNull();
    expect(overriderRefusal(facts({ record: null, storedCommit: null }), HEAD)).toMatch(/no record of who authored/);
  });

  it('lets an independent person override', () => {
    expect(overriderRefusal(facts({}), HEAD)).toBeNull();
  });
});
