/**
 * The CPU one poll of a rules head costs the server's own code, in process, without PostgreSQL or HTTP
 * (docs/benchmarks.md, "The decision with rules"): `decideRelease` and the answer's JSON for the 200 heads of
 * bench/decision-rules.ts (20 rules, 3,000 files each), their facts served deep-frozen as the decision's cache serves
 * them, beside the same poll of commits without a pull request under the gate without rules. No goal: it says where a
 * change to the decision moves its cost, on a machine too busy for the load bench.
 *
 *   node bin/run-ts.js bench/decision-rules-cpu.ts [polls]
 */
import { randomUUID } from 'node:crypto';
import { deepFreeze } from '../core/deep-freeze.js';
import { decideRelease } from '../core/release/decide-release.js';
import { decisionAnswerJson } from '../core/release/decision-answer-json.js';
import { gateDigest, type Gate } from '../core/release/gate.js';
import type { ReleasePorts } from '../core/release/release-ports.js';
import type { CommitStateFacts } from '../core/release/release-store.js';
import type { NewSnapshot, SnapshotHead } from '../core/release/snapshot.js';
import { BENCH_GATE } from './lib/seed-release-history.js';
import { RULE_HEADS, RULES_BENCH_GATE, ruleHeadFacts } from './lib/seed-rule-heads.js';

const produced_at = new Date(Date.now() - 60_000).toISOString();

/** Ports whose store serves each commit's facts as the cache does (mapped once per row, deep-frozen) and keeps snapshots. */
function inMemoryPorts(gate: Gate, withPullRequests: boolean): { ports: ReleasePorts; heads: string[] } {
  const heads = Array.from({ length: RULE_HEADS.heads }, (_, i) => i.toString(16).padStart(40, '0'));
  const version = deepFreeze({ version: 2, digest: gateDigest(gate), gate: structuredClone(gate), source: 'api' as const });
  const rows = new Map(
    heads.map((sha, i) => [
      sha,
      deepFreeze({
        authorship: withPullRequests ? { number: i, status: 'read' as const, reason: null, facts: ruleHeadFacts(i, sha) } : null,
        checkRuns: ['ci/test', 'lint'].map((name) => ({ name, status: 'completed', conclusion: 'success', produced_at })),
        uploads: [{ kind: 'sbom', name: 'sbom', status: 'passed' as const, digest: `sha256:${'0'.repeat(64)}`, uri: null, produced_at }],
      }),
    ]),
  );
  const snapshots = new Map<string, SnapshotHead>();
  // As the store serves a cached row: its facts mapped once and frozen, read again when the commit changes.
  const served = new Map<string, CommitStateFacts>();
  const factsOf = (repoRoot: string, sha: string): CommitStateFacts => {
    const row = rows.get(sha)!;
    return deepFreeze({
      gate: { ...version, gate: { ...version.gate }, repo_root: repoRoot, created_by: null, created_at: produced_at },
      evidence: {
        checkRuns: row.checkRuns.map((c) => ({ ...c, details_url: null, external_id: null })),
        uploads: [...row.uploads],
        contents: {},
      },
      executions: [],
      workflows: [],
      latest: snapshots.get(sha) ?? null,
      attested: [],
      authorship: row.authorship,
      merge_group: null,
      pull_request_work: [],
      open_pull_requests: [],
      overrides: [],
    } as CommitStateFacts);
  };
  const store = {
    async commitFacts(repoRoot: string, sha: string): Promise<CommitStateFacts> {
      if (!served.has(sha)) served.set(sha, factsOf(repoRoot, sha));
      return served.get(sha)!;
    },
    async certificateEnvelopes() {
      return [];
    },
    async sessionCoverage() {
      return { arrivals: [], sessions: [] };
    },
    async saveSnapshot(s: NewSnapshot): Promise<SnapshotHead> {
      const head = { ...s, id: randomUUID(), status: 'candidate', release_label: null, created_at: produced_at, attested_at: null };
      snapshots.set(s.commit_sha, head as SnapshotHead);
      served.delete(s.commit_sha);
      return head as SnapshotHead;
    },
  };
  return { ports: { store, cachingVerifier: { verify: () => true } } as unknown as ReleasePorts, heads };
}

/** CPU milliseconds per poll (process.cpuUsage: every thread, the collector's included) and the answer's bytes. */
async function measure(gate: Gate, withPullRequests: boolean, polls: number) {
  const { ports, heads } = inMemoryPorts(gate, withPullRequests);
  // The answer's body as the route builds it (core/release/decision-answer-json.ts).
  const poll = async (sha: string) =>
    decisionAnswerJson((await decideRelease(ports, 'bench/rules', sha)).decision, `http://127.0.0.1/studio#/releases/bench/rules/${sha}`);
  for (const sha of heads) await poll(sha); // each head's first decision stores its snapshot, as the load bench's do
  for (let i = 0; i < polls / 4; i++) await poll(heads[i % heads.length]);
  const before = process.cpuUsage();
  for (let i = 0; i < polls; i++) await poll(heads[i % heads.length]);
  const used = process.cpuUsage(before);
  return { 'CPU ms per poll': ((used.user + used.system) / 1000 / polls).toFixed(3), 'answer bytes': (await poll(heads[0])).length };
}

const polls = Number(process.argv[2] ?? 4000);
console.table({
  [`${RULE_HEADS.rules} rules, ${RULE_HEADS.files.toLocaleString('en-US')} files`]: await measure(RULES_BENCH_GATE, true, polls),
  'no rules, no pull request': await measure(BENCH_GATE, false, polls),
});
