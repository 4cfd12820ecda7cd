import type { ReleaseDecision } from './decide-release.js';
import { createLastValueMemo } from './last-value-memo.js';

type Settled = Omit<ReleaseDecision, 'evaluated_at'>;

/**
 * Each commit's last answer but its clock, and that answer's JSON text without its closing brace. Bounded by
 * commits and by bytes (16 KiB a commit on average: 32 MiB for the default 2,000; with rules over thousands of files an
 * answer is about 25 KB, without rules about 7 KB).
 */
const lastOfCommit = createLastValueMemo<Settled, Buffer>({ bytesPerCommit: 16 * 1024, sizeOf: (b) => b.length });

/**
 * `GET /releases/decision`'s body: the decision as JSON (UTF-8), `evaluated_at` and `decision_url` last. A commit
 * polled with the same answer as its last poll (`sameJson`: only what the poll rebuilt is walked) reuses that answer's
 * text instead of serialising it again, which with the gate's rules over a pull request of thousands of files costs
 * more than the rest of the decision (docs/benchmarks.md). The text served is always that of an equal answer.
 */
export function decisionAnswerJson(decision: ReleaseDecision, decisionUrl: string): Buffer {
  const { evaluated_at, ...settled } = decision;
  const key = `${decision.repo_root}\n${decision.commit_sha}`;
  let head = lastOfCommit.get(key, settled);
  if (!head) {
    head = Buffer.from(JSON.stringify(settled).slice(0, -1));
    lastOfCommit.set(key, settled, head);
  }
  const tail = `,"evaluated_at":${JSON.stringify(evaluated_at)},"decision_url":${JSON.stringify(decisionUrl)}}`;
  return Buffer.concat([head, Buffer.from(tail)]);
}
