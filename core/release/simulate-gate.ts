import type { OverriddenBlockers } from './apply-overrides.js';
import { judgeCommit } from './judge-commit.js';
import { isWaitable, type Blocker } from './blocker.js';
import type { Decision } from './evaluate-decision.js';
import { gateDigest, type Gate } from './gate.js';
import { gateInForce } from './gate-in-force.js';
import { readCommitState, type CommitState, type CommitStatePorts } from './read-commit-state.js';
import type { RecentCommitsReader } from './recent-commits-reader.js';
import type { GateStore } from './release-store.js';

type ShownBlocker = Blocker & { waitable: boolean };

/** A decision as the simulation shows it: its outcome, blockers and overrides, each blocker with `waitable` as the decision gives it. */
export interface SimulatedDecision {
  decision: Decision;
  blockers: ShownBlocker[];
  /** The commit's overrides in force and the blockers each lifts under this gate (one may forbid it: `overridable: false`). */
  overridden: (Omit<OverriddenBlockers, 'blockers'> & { blockers: ShownBlocker[] })[];
}

/** One commit whose decision or blockers the draft would change. */
export interface SimulatedChange {
  commit_sha: string;
  /** The pull request whose head it is (or whose merge group it is), when shipgate recorded one. */
  pull_request?: number;
  before: SimulatedDecision;
  after: SimulatedDecision;
  /** Facts the draft's decision needed and the stored state does not hold, in words (its `*_unknown` blockers' reasons). */
  unknown_facts: string[];
}

export interface GateSimulation {
  repo_root: string;
  /** How many commits were judged (at most the limit asked for). */
  judged: number;
  gate_in_force: { version: number; digest: string };
  draft_digest: string;
  changes: SimulatedChange[];
  totals: { flips_to_ship: number; flips_to_no_ship: number; changed_blockers: number; unchanged: number };
  evaluated_at: string;
}

/** What a simulation reads: the recent commits, and each one's state as the decision reads it. */
export interface GateSimulationPorts extends CommitStatePorts {
  store: CommitStatePorts['store'] & RecentCommitsReader & Pick<GateStore, 'latestGate'>;
}

/** Commits whose state is read at once: the decision's one round trip each, a few in flight. */
const IN_FLIGHT = 4;

/** Blockers that say a fact is not held rather than that a requirement failed. */
const UNKNOWN_FACT_CODES: ReadonlySet<Blocker['code']> = new Set(['changed_files_unknown', 'agent_provenance_unknown']);

const shownBlockers = (blockers: Blocker[]): ShownBlocker[] => blockers.map((b) => ({ ...b, waitable: isWaitable(b) }));

/**
 * What `gate` decides for the commit now, as the decision does (core/release/decide-release.ts): judged, then its
 * overrides in force lift the blockers they name where this gate allows it; SHIP when none remains.
 */
function decisionUnder(gate: Gate, state: CommitState, sha: string, now: Date): SimulatedDecision {
  const { decision, blockers, overridden } = judgeCommit(gate, state, sha, now);
  return {
    decision,
    blockers: shownBlockers(blockers),
    overridden: overridden.map((o) => ({ ...o, blockers: shownBlockers(o.blockers) })),
  };
}

const sameBlockers = (a: readonly Blocker[], b: readonly Blocker[]) =>
  a.length === b.length && a.every((x, i) => x.code === b[i].code && x.component === b[i].component && x.reason === b[i].reason);

/**
 * Judges a draft gate against the stored facts of the repository's last `limit` commits and pull request heads, beside
 * what the gate in force decides for each now (docs/release-gate.md, "Simulating a gate"). Both judgements are the
 * decision's pure core (`judgeCommit`) over the state the decision reads (`readCommitState`): nothing is written,
 * no snapshot, gate version or change count, and nothing is asked of GitHub, so facts never read stay unknown and
 * the draft's decision says so as it would once saved.
 */
export async function simulateGate(
  ports: GateSimulationPorts,
  repoRoot: string,
  draft: Gate,
  limit: number,
  now = new Date(),
): Promise<GateSimulation> {
  // One gate in force for every commit judged, read once: a gate saved meanwhile does not split the answer.
  const [recorded, shas] = await Promise.all([ports.store.latestGate(repoRoot), ports.store.recentCommits(repoRoot, limit)]);
  const gate = gateInForce(repoRoot, recorded);
  const changes: SimulatedChange[] = [];
  let unchanged = 0;
  const judge = async (sha: string): Promise<SimulatedChange | null> => {
    const state = await readCommitState(ports, repoRoot, sha, [gate.gate.agents, draft.agents]);
    const before = decisionUnder(gate.gate, state, sha, now);
    const after = decisionUnder(draft, state, sha, now);
    if (before.decision === after.decision && sameBlockers(before.blockers, after.blockers)) return null;
    const number = state.authorship.record?.number;
    return {
      commit_sha: sha,
      ...(number === undefined ? {} : { pull_request: number }),
      before,
      after,
      unknown_facts: [...new Set(after.blockers.filter((b) => UNKNOWN_FACT_CODES.has(b.code)).map((b) => b.reason))],
    };
  };
  for (let i = 0; i < shas.length; i += IN_FLIGHT) {
    for (const change of await Promise.all(shas.slice(i, i + IN_FLIGHT).map(judge))) {
      if (change) changes.push(change);
      else unchanged += 1;
    }
  }
  const flips = (to: Decision) => changes.filter((c) => c.before.decision !== to && c.after.decision === to).length;
  const flipsToShip = flips('SHIP');
  const flipsToNoShip = flips('NO_SHIP');
  return {
    repo_root: repoRoot,
    judged: shas.length,
    gate_in_force: { version: gate.version, digest: gate.digest },
    draft_digest: gateDigest(draft),
    changes,
    totals: {
      flips_to_ship: flipsToShip,
      flips_to_no_ship: flipsToNoShip,
      changed_blockers: changes.length - flipsToShip - flipsToNoShip,
      unchanged,
    },
    evaluated_at: now.toISOString(),
  };
}
