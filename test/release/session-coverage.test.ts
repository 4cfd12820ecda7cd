import { agentChangeFindings, type CommitAuthorship } from '../../core/release/agent-change-findings.js';
import type { PullRequestFacts } from '../../core/release/authorship.js';
import { DEFAULT_GATE } from '../../core/release/gate.js';
import { coveringSession, SESSION_GRACE_MS, type SessionCoverageFacts, type SessionFacts } from '../../core/release/session-coverage.js';

const SHA = 'c'.repeat(40);
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A compliant session opened at minute 0, running, expiring at minute 60. */
function session(over: Partial<SessionFacts> = {}): SessionFacts {
  return {
    id: id(1),
    branch: null,
    status: 'running',
    verdict: null,
    started_at: at(0),
    finished_at: null,
    expires_at: at(60),
    denied_calls: 0,
    denied_call_severity: 'blocking',
    ...over,
  };
}

const arrived = (minutes: number, branch = 'copilot/fix-12', sha = SHA) => ({ sha, branch, arrived_at: at(minutes) });
const covers = (facts: SessionCoverageFacts) => coveringSession(SHA, facts);
const named = (n: number) => ({ kind: 'agent_session', session_id: id(n), execution_id: id(n) });

describe('which agent session covers a commit (core/release/session-coverage.ts)', () => {
  it('a push received while a compliant session of the repository is open is covered by it; one received before it opened is not', () => {
    expect(covers({ arrivals: [arrived(10)], sessions: [session()] })).toEqual(named(1));
    expect(covers({ arrivals: [arrived(-1)], sessions: [session()] })).toBeNull();
    expect(covers({ arrivals: [], sessions: [session()] })).toBeNull();
  });

  it('the window runs until the session ended, at the latest its expiry, plus five minutes of grace', () => {
    const closed = session({ status: 'completed', verdict: 'compliant', finished_at: at(20) });
    expect(SESSION_GRACE_MS).toBe(5 * 60_000);
    expect(covers({ arrivals: [arrived(24.9)], sessions: [closed] })).toEqual(named(1));
    expect(covers({ arrivals: [arrived(25.1)], sessions: [closed] })).toBeNull();
    // Still running in the record past its expiry (nobody called it since): its expiry ends it.
    expect(covers({ arrivals: [arrived(64)], sessions: [session()] })).toEqual(named(1));
    expect(covers({ arrivals: [arrived(66)], sessions: [session()] })).toBeNull();
    const closedLate = session({ status: 'completed', verdict: 'compliant', finished_at: at(90) });
    expect(covers({ arrivals: [arrived(70)], sessions: [closedLate] })).toBeNull();
  });

  it('a session naming a branch covers pushes to that branch only', () => {
    expect(covers({ arrivals: [arrived(10, 'main')], sessions: [session({ branch: 'copilot/fix-12' })] })).toBeNull();
    expect(covers({ arrivals: [arrived(10)], sessions: [session({ branch: 'copilot/fix-12' })] })).toEqual(named(1));
    expect(covers({ arrivals: [arrived(10)], sessions: [session({ branch: 'refs/heads/copilot/fix-12' })] })).toEqual(named(1));
    // Pushed first to a scratch branch, then to the session's, both during it: covered.
    expect(covers({ arrivals: [arrived(5, 'scratch'), arrived(10)], sessions: [session({ branch: 'copilot/fix-12' })] })).toEqual(named(1));
  });

  it('a commit already in the repository before the session opened is not covered by pushing it again during it', () => {
    expect(covers({ arrivals: [arrived(-30, 'elsewhere'), arrived(10)], sessions: [session()] })).toBeNull();
  });

  it('only a compliant session counts: not one with a call denied under a blocking policy, a non-compliant or a cancelled one', () => {
    const arrivals = [arrived(10)];
    expect(covers({ arrivals, sessions: [session({ denied_calls: 1 })] })).toBeNull();
    expect(covers({ arrivals, sessions: [session({ denied_calls: 1, denied_call_severity: 'warning' })] })).toEqual(named(1));
    expect(covers({ arrivals, sessions: [session({ status: 'completed', verdict: 'non_compliant', finished_at: at(20) })] })).toBeNull();
    expect(covers({ arrivals, sessions: [session({ status: 'cancelled', finished_at: at(20) })] })).toBeNull();
    expect(covers({ arrivals, sessions: [session({ status: 'failed', verdict: 'compliant', finished_at: at(20) })] })).toBeNull();
  });

  it('of several covering sessions the earliest is named; one that does not count is passed over', () => {
    const sessions = [session({ id: id(3), started_at: at(5) }), session({ id: id(2), started_at: at(1) }), session({ denied_calls: 2 })];
    expect(covers({ arrivals: [arrived(10)], sessions })).toEqual(named(2));
  });
});

describe('the agent rules with sessions', () => {
  const pr: PullRequestFacts = {
    number: 12,
    head_sha: SHA,
    author: { login: 'Copilot', type: 'Bot' },
    assignees: ['alice'],
    commits: [
      {
        sha: SHA,
        author: { login: 'Copilot', type: 'Bot', name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com' },
        committer: { login: 'web-flow', type: 'User', name: 'GitHub', email: 'noreply@github.com' },
        coauthors: [],
      },
    ],
    reviews: [],
  };
  const authorship = (sessions?: SessionCoverageFacts): CommitAuthorship => ({
    record: { number: 12, status: 'read', reason: null, facts: pr },
    governedCommits: [],
    ...(sessions ? { sessions } : {}),
  });
  const ungoverned = (a: CommitAuthorship) =>
    agentChangeFindings(DEFAULT_GATE, SHA, [], a).blockers.filter((b) => b.code === 'agent_change_ungoverned').length;

  it('a covering session clears agent_change_ungoverned and is named on the commit; without one the commit stays ungoverned', () => {
    const covered = agentChangeFindings(DEFAULT_GATE, SHA, [], authorship({ arrivals: [arrived(10)], sessions: [session()] }));
    expect(covered.authorship.commits).toEqual([expect.objectContaining({ sha: SHA, agent_authored: true, governed_by: named(1) })]);
    expect(ungoverned(authorship({ arrivals: [arrived(10)], sessions: [session()] }))).toBe(0);
    expect(ungoverned(authorship({ arrivals: [arrived(-1)], sessions: [session()] }))).toBe(1);
    expect(ungoverned(authorship())).toBe(1);
    expect(agentChangeFindings(DEFAULT_GATE, SHA, [], authorship()).authorship.commits[0].governed_by).toBeNull();
    // Work bound to the commit still counts, and says so.
    const bound = agentChangeFindings(DEFAULT_GATE, SHA, [], { ...authorship(), governedCommits: [SHA] });
    expect(bound.authorship.commits[0].governed_by).toEqual({ kind: 'bound_work' });
  });
});
