import { judgeCommit } from '../../core/release/judge-commit.js';
import { NO_PULL_REQUEST } from '../../core/release/agent-change-findings.js';
import { rememberCommits } from '../../core/release/last-value-memo.js';
import { judgeCommitRemembered } from '../../core/release/remembered-judgement.js';
import type { OverrideFact } from '../../core/release/override.js';
import { check, evidence, gate, hoursAgo, NOW, upload } from './support/release-fixtures.js';

// A commit polled with nothing changed gets its last judgement again (core/release/remembered-judgement.ts); each test
// changes one thing a judgement reads (the clock, the evidence, the gate, an override) and expects it judged anew.
const HOUR_S = 3600;
const strict = gate({ required_checks: ['ci'], required_evidence: ['sbom'], evidence_max_age_seconds: 2 * HOUR_S });
const at = (ms: number) => new Date(NOW.getTime() + ms);
let n = 0;
const commit = () => `acme/remembered-${++n}`;

function state(checks = [check('ci', { produced_at: hoursAgo(1) })], overrides: OverrideFact[] = []) {
  return {
    evidence: evidence(checks, [upload('sbom', { produced_at: hoursAgo(1) })]),
    workflows: [],
    authorship: NO_PULL_REQUEST,
    overrides,
  };
}

const codes = (j: { blockers: { code: string }[] }) => j.blockers.map((b) => b.code).sort();

describe('a remembered judgement', () => {
  it('is the same frozen judgement while nothing changes, and what judgeCommit decides', () => {
    const repo = commit();
    const first = judgeCommitRemembered(repo, strict, state(), 'a'.repeat(40), NOW);
    const again = judgeCommitRemembered(repo, strict, state(), 'a'.repeat(40), at(1000));
    expect(again.judged).toBe(first.judged);
    expect(Object.isFrozen(again.judged.explanation)).toBe(true);
    expect(again.judged).toEqual(judgeCommit(strict, state(), 'a'.repeat(40), at(1000)));
  });

  it('turns stale the second the evidence is older than evidence_max_age_seconds, and back with an earlier clock', () => {
    const repo = commit();
    const sha = 'b'.repeat(40);
    // Produced an hour before NOW, allowed two hours: stale from NOW + 1 h + 1 s (ageSeconds counts whole seconds).
    expect(codes(judgeCommitRemembered(repo, strict, state(), sha, at(HOUR_S * 1000)).judged)).toEqual([]);
    expect(codes(judgeCommitRemembered(repo, strict, state(), sha, at(HOUR_S * 1000 + 999)).judged)).toEqual([]);
    const stale = judgeCommitRemembered(repo, strict, state(), sha, at(HOUR_S * 1000 + 1000)).judged;
    expect(codes(stale)).toEqual(['runtime_evidence_stale', 'runtime_evidence_stale']);
    expect(stale.decision).toBe('NO_SHIP');
    expect(judgeCommitRemembered(repo, strict, state(), sha, NOW).judged.decision).toBe('SHIP');
  });

  it('sees changed evidence and a new gate at once', () => {
    const repo = commit();
    const sha = 'c'.repeat(40);
    expect(judgeCommitRemembered(repo, strict, state(), sha, NOW).judged.decision).toBe('SHIP');
    const failed = state([check('ci', { produced_at: hoursAgo(1), conclusion: 'failure' })]);
    expect(codes(judgeCommitRemembered(repo, strict, failed, sha, NOW).judged)).toEqual(['required_check_failed']);
    const lint = gate({ ...strict, required_checks: ['ci', 'lint'] });
    expect(codes(judgeCommitRemembered(repo, lint, state(), sha, NOW).judged)).toEqual(['required_check_missing']);
  });

  it('stops lifting a blocker the second its override expires', () => {
    const repo = commit();
    const sha = 'd'.repeat(40);
    const override: OverrideFact = {
      id: 'o1',
      blockers: [{ code: 'required_check_failed', component: 'check:ci' }],
      reason: 'hotfix',
      reason_digest: 'r'.repeat(64),
      created_by_login: 'ana',
      expires_at: at(60_000).toISOString(),
    };
    const failed = () => state([check('ci', { produced_at: hoursAgo(1), conclusion: 'failure' })], [override]);
    const lifted = judgeCommitRemembered(repo, strict, failed(), sha, at(59_999)).judged;
    expect(lifted.decision).toBe('SHIP');
    expect(lifted.overridden.map((o) => o.id)).toEqual(['o1']);
    const expired = judgeCommitRemembered(repo, strict, failed(), sha, at(60_000)).judged;
    expect(codes(expired)).toEqual(['required_check_failed']);
    expect(expired.overridden).toEqual([]);
  });

  it('is not changed by what a caller does to the state it judged afterwards', () => {
    const repo = commit();
    const sha = 'e'.repeat(40);
    const mine = state();
    judgeCommitRemembered(repo, strict, mine, sha, NOW);
    mine.evidence.checkRuns[0].conclusion = 'failure';
    expect(judgeCommitRemembered(repo, strict, mine, sha, NOW).judged.decision).toBe('NO_SHIP');
    expect(judgeCommitRemembered(repo, strict, state(), sha, NOW).judged.decision).toBe('SHIP');
  });

  it('is kept for as many commits as the decision cache keeps (SHIPGATE_DECISION_CACHE_COMMITS)', () => {
    const [a, b, c, d] = [commit(), commit(), commit(), commit()];
    const judge = (repo: string) => judgeCommitRemembered(repo, strict, state(), 'f'.repeat(40), NOW).judged;
    try {
      rememberCommits(2);
      const first = judge(a);
      judge(b);
      expect(judge(a)).toBe(first);
      rememberCommits(1);
      judge(c);
      expect(judge(a)).not.toBe(first);
      rememberCommits(0);
      const none = judge(d);
      expect(judge(d)).not.toBe(none);
      expect(judge(d)).toEqual(none);
    } finally {
      rememberCommits(2_000);
    }
  });
});
