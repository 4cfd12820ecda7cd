import { agentsOfCommit, agentsOfPullRequest, agentNameOf } from '../../core/release/agent-identity.js';
import type { CommitFacts, PullRequestFacts, ReviewFacts } from '../../core/release/authorship.js';
import { coAuthorTrailers } from '../../core/release/co-author-trailers.js';
import { DEFAULT_GATE, gateSchema } from '../../core/release/gate.js';
import { judgeApprovals } from '../../core/release/independent-approvals.js';
import { evaluateDecision } from '../../core/release/evaluate-decision.js';
import { isWaitable } from '../../core/release/blocker.js';
import { reviewsOf } from './support/review-facts.js';

const HEAD = 'b'.repeat(40);
const OLD = 'a'.repeat(40);
const agents = DEFAULT_GATE.agents;
const rules = DEFAULT_GATE.agent_changes;

const person = (login: string, email = `${login}@example.com`) => ({ login, type: 'User', name: login, email });

function commit(sha: string, over: Partial<CommitFacts> = {}): CommitFacts {
  return { sha, author: person('alice'), committer: person('alice'), coauthors: [], ...over };
}

const review = reviewsOf(HEAD);

/** An agent's pull request: Copilot authored it, its commit names alice as co-author, bob is assigned. */
function agentPr(reviews: ReviewFacts[]): PullRequestFacts {
  return {
    number: 7,
    head_sha: HEAD,
    author: { login: 'Copilot', type: 'Bot' },
    assignees: ['bob'],
    commits: [
      commit(HEAD, {
        author: { login: 'Copilot', type: 'Bot', name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com' },
        committer: { login: 'web-flow', type: 'User', name: 'GitHub', email: 'noreply@github.com' },
        coauthors: [{ name: 'Alice', email: '1234+alice@users.noreply.github.com' }],
      }),
    ],
    reviews,
  };
}

describe('who is an agent', () => {
  it('a person’s commit with a Co-authored-by trailer naming a configured agent e-mail makes the pull request agent-authored', () => {
    const gate = gateSchema.parse({ agents: { coauthor_emails: ['helper@agents.example'] } });
    const trailers = coAuthorTrailers('Fix the parser\n\nCo-authored-by: Helper Bot <helper@agents.example>\n');
    const pr: PullRequestFacts = {
      number: 1,
      head_sha: HEAD,
      author: { login: 'alice', type: 'User' },
      assignees: [],
      commits: [commit(HEAD, { coauthors: trailers })],
      reviews: [],
    };
    expect(agentsOfPullRequest(pr, gate.agents)).toEqual(['helper@agents.example']);
    expect(agentsOfPullRequest(pr, DEFAULT_GATE.agents)).toEqual([]);
  });

  it('built-in trailers name agents whatever the name part says (Claude Code, case-insensitive)', () => {
    const trailers = coAuthorTrailers('x\n\nCo-Authored-By: Claude Opus 4 <noreply@anthropic.com>');
    expect(agentsOfCommit(commit(HEAD, { coauthors: trailers }), agents)).toEqual(['noreply@anthropic.com']);
  });

  it('dependabot[bot] is not an agent by default; agents.accounts makes one', () => {
    const dependabot = { login: 'dependabot[bot]', type: 'Bot' };
    expect(agentNameOf(dependabot, agents)).toBeNull();
    expect(agentNameOf(dependabot, gateSchema.parse({ agents: { accounts: ['dependabot[bot]'] } }).agents)).toBe('dependabot[bot]');
    expect(agentNameOf({ login: 'my-agent', type: 'User' }, gateSchema.parse({ agents: { accounts: ['My-Agent'] } }).agents)).toBe(
      'my-agent',
    );
  });

  it('any Bot account is an agent unless bots_are_agents is false; Copilot is one by login', () => {
    expect(agentNameOf({ login: 'some-tool[bot]', type: 'Bot' }, agents)).toBe('some-tool[bot]');
    const off = gateSchema.parse({ agents: { bots_are_agents: false } }).agents;
    expect(agentNameOf({ login: 'some-tool[bot]', type: 'Bot' }, off)).toBeNull();
    expect(agentNameOf({ login: 'Copilot', type: 'Bot' }, off)).toBe('Copilot');
    expect(agentNameOf(person('alice'), agents)).toBeNull();
  });
});

describe('independent approvals of an agent’s pull request', () => {
  const judged = (reviews: ReviewFacts[]) => judgeApprovals(agentPr(reviews), agents, rules, true);

  it('the co-author who asked the agent approves: not counted, and the reason says why', () => {
    expect(judged([review('alice', 'APPROVED')])).toEqual([
      { login: 'alice', state: 'APPROVED', commit_sha: HEAD, counted: false, reason: 'co_author' },
    ]);
  });

  it('an independent writer approves the head: counted', () => {
    expect(judged([review('carol', 'APPROVED')])).toEqual([
      { login: 'carol', state: 'APPROVED', commit_sha: HEAD, counted: true, reason: null },
    ]);
  });

  it('an approval of an older head is stale (unless dismiss_stale_approvals is false)', () => {
    const reviews = [review('carol', 'APPROVED', { commit_id: OLD })];
    expect(judged(reviews)[0]).toMatchObject({ counted: false, reason: 'stale' });
    expect(judgeApprovals(agentPr(reviews), agents, { ...rules, dismiss_stale_approvals: false }, true)[0].counted).toBe(true);
  });

  it('the same reviewer then requests changes: the approval is withdrawn; a comment afterwards changes nothing', () => {
    const approvedThenChanges = [review('carol', 'APPROVED'), review('carol', 'CHANGES_REQUESTED'), review('carol', 'COMMENTED')];
    expect(judged(approvedThenChanges)).toEqual([
      { login: 'carol', state: 'CHANGES_REQUESTED', commit_sha: HEAD, counted: false, reason: 'withdrawn' },
    ]);
    expect(judged([review('carol', 'APPROVED'), review('carol', 'COMMENTED')])[0].counted).toBe(true);
  });

  it('a reader approves: not counted; nor a dismissed approval, a bot, an agent, the assignee or the author', () => {
    const reviews = [
      review('dave', 'APPROVED', { permission: 'read' }),
      review('erin', 'DISMISSED'),
      review('coderabbitai[bot]', 'APPROVED', { type: 'Bot' }),
      review('bob', 'APPROVED'),
    ];
    expect(judged(reviews).map((a) => [a.login, a.counted, a.reason])).toEqual([
      ['dave', false, 'no_write_permission'],
      ['erin', false, 'dismissed'],
      ['coderabbitai[bot]', false, 'bot'],
      ['bob', false, 'assignee'],
    ]);
    // A person's pull request: the assignee is independent.
    expect(judgeApprovals(agentPr([review('bob', 'APPROVED')]), agents, rules, false)[0].counted).toBe(true);
  });

  it('a co-author is matched through the e-mail a commit’s linked author has', () => {
    const pr = agentPr([review('frank', 'APPROVED')]);
    pr.commits.push(commit(OLD, { author: person('frank', 'frank@corp.example') }));
    pr.commits[0].coauthors = [{ name: 'F', email: 'Frank@corp.example' }];
    expect(judgeApprovals(pr, agents, rules, true)[0].reason).toBe('commit_author');
    pr.commits.pop();
    expect(judgeApprovals(pr, agents, rules, true)[0].counted).toBe(true);
  });
});

describe('a pull request head whose authorship is unknown', () => {
  const evidence = {
    checkRuns: [],
    uploads: [{ kind: 'scan', name: 'sbom', status: 'passed' as const, digest: null, uri: null, produced_at: new Date().toISOString() }],
  };
  const decide = (status: 'pending' | 'unreadable' | 'commit_limit', gate = DEFAULT_GATE) =>
    evaluateDecision(gate, evidence, [], new Date(), {
      sha: HEAD,
      authorship: { record: { number: 4, status, reason: 'GitHub answered 404', facts: null }, governedCommits: [] },
    });

  it('never ships; only a read not done yet is a wait, like a pending check', () => {
    for (const status of ['pending', 'unreadable', 'commit_limit'] as const) {
      const { decision, blockers } = decide(status);
      expect(decision).toBe('NO_SHIP');
      expect(blockers.map((b) => [b.code, b.component, isWaitable(b)])).toEqual([
        ['agent_provenance_unknown', `authorship:${status}`, status === 'pending'],
      ]);
    }
  });

  it('blocks nothing under a gate without agent rules (protected paths, an agent rule too, turned off)', () => {
    const noAgentRules = { agent_changes: { required_human_approvals: 0, require_governed_work: false } };
    const gate = gateSchema.parse({ ...noAgentRules, protected_paths: { enabled: false } });
    expect(decide('unreadable', gate).decision).toBe('SHIP');
    // With protected paths on, an unread pull request may be an agent's editing its own workflow: it fails closed.
    const guarded = decide('unreadable', gateSchema.parse(noAgentRules));
    expect(guarded.blockers.map((b) => [b.code, b.component])).toEqual([['changed_files_unknown', 'files:unreadable']]);
  });
});
