import { ageSeconds } from './evidence.js';
import type { Gate } from './gate.js';
import { judgeCommit } from './judge-commit.js';
import { createLastValueMemo } from './last-value-memo.js';
import type { CommitState } from './read-commit-state.js';
import { rememberable } from './same-json.js';
import { deepFreeze } from '../deep-freeze.js';

type JudgedState = Pick<CommitState, 'evidence' | 'workflows' | 'authorship' | 'overrides'>;
type Judgement = ReturnType<typeof judgeCommit>;

/**
 * What the clock decides in a commit's judgement: whether each check run and each upload is older than the gate's
 * `evidence_max_age_seconds`, and whether each override is still in force. A judgement reads the clock for nothing
 * else (required-check-findings.ts and required-evidence-findings.ts through `ageSeconds`, a rule's checks and evidence
 * through the same with the same gate, apply-overrides.ts for expiry); a new reading of the clock there must be added
 * here, or a remembered judgement would outlive it (test/release/remembered-judgement.test.ts).
 */
export function clockReadings(gate: Gate, state: JudgedState, now: Date): boolean[] {
  const stale = (producedAt: string) => ageSeconds(producedAt, now) > gate.evidence_max_age_seconds;
  return [
    ...state.evidence.checkRuns.map((c) => stale(c.produced_at)),
    ...state.evidence.uploads.map((u) => stale(u.produced_at)),
    ...state.overrides.map((o) => Date.parse(o.expires_at) > now.getTime()),
  ];
}

type Inputs = { gate: Gate; state: JudgedState; clock: boolean[] };

/** Each commit's last judgement, with the state it was judged from (a few KB each: what polls share is held once). */
const lastOfCommit = createLastValueMemo<Inputs, { judged: Judgement; state: JudgedState }>();

/**
 * `judgeCommit` for the decision of a commit polled again: when the gate, the commit's state and what the clock decides
 * of it (`clockReadings`) are the same as at its last poll, the judgement of then, deep-frozen, with the state it was
 * judged from (equal to this one). Pure in what it answers: the judgement is a function of exactly these inputs. A poll
 * that changes nothing then builds no blocker, requirement or rule outcome again, and what the decision makes of them
 * (the snapshot's digest, the answer's text) is found the same by identity (docs/benchmarks.md).
 */
export function judgeCommitRemembered(
  repoRoot: string,
  gate: Gate,
  state: JudgedState,
  sha: string,
  now: Date,
): { judged: Judgement; state: JudgedState } {
  const key = `${repoRoot}\n${sha}`;
  const inputs: Inputs = { gate, state, clock: clockReadings(gate, state, now) };
  const known = lastOfCommit.get(key, inputs);
  if (known) return known;
  const judgedState = rememberable(state);
  const judged = deepFreeze(judgeCommit(gate, judgedState, sha, now));
  lastOfCommit.set(key, { ...inputs, state: judgedState }, { judged, state: judgedState });
  return { judged, state: judgedState };
}
