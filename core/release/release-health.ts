import { performance } from 'node:perf_hooks';
import { IN_TOTO_STATEMENT_TYPE, type InTotoStatement } from '../certificates/types.js';
import { ageSeconds } from './evidence.js';
import type { Gate } from './gate.js';
import { gateInForce } from './gate-in-force.js';
import { checkEntryApp, checkEntryName, checkEntryPaths, reportedBy, type RequiredCheckEntry } from './required-check-entry.js';
import type { ReleasePorts } from './release-ports.js';
import type { RepoScope } from './release-store.js';
import type { Snapshot } from './snapshot.js';
import { evidenceEntryName } from '../evidence-content/evidence-rules.js';

export const HEARTBEAT_MAX_AGE_SECONDS = 60;

export interface RuntimeEvidenceItem {
  kind: 'worker_heartbeat' | 'signing_key' | 'check_run' | 'evidence';
  name: string;
  repo_root: string | null;
  commit_sha: string | null;
}

export interface ReleaseHealth {
  status: 'healthy' | 'degraded' | 'failed';
  verification_graph: { reachable: boolean; latency_ms: number };
  latest_attested_snapshot: {
    snapshot_id: string;
    repo_root: string;
    commit_sha: string;
    attested_at: string;
    age_seconds: number;
    max_age_seconds: number;
    fresh: boolean;
  } | null;
  runtime_evidence: { missing: boolean; items: RuntimeEvidenceItem[] };
  checked_at: string;
}

/** The signing key is loaded when a probe statement it signs verifies under the published keys. */
function signingKeyWorks(ports: ReleasePorts): boolean {
  try {
    const probe: InTotoStatement = {
      _type: IN_TOTO_STATEMENT_TYPE,
      subject: [{ name: 'health-probe', digest: { sha256: '0'.repeat(64) } }],
      predicateType: 'https://shipgate.dev/health-probe/v1',
      predicate: {},
    };
    return ports.verifier.verify(ports.signer.sign(probe)).verified;
  } catch {
    return false;
  }
}

/** Required checks and evidence the latest candidate of a gated repository has not got at all. */
function missingFor(snapshot: Snapshot, gate: Gate): RuntimeEvidenceItem[] {
  const at = { repo_root: snapshot.repo_root, commit_sha: snapshot.commit_sha };
  const uploads = new Set(snapshot.provenance.evidence.map((e) => e.name));
  // A pinned check reported only by another source is as good as missing (docs/release-gate.md, "Checks pinned to their source").
  const present = (entry: RequiredCheckEntry) => {
    const app = checkEntryApp(entry);
    return snapshot.provenance.check_runs.some((c) => c.name === checkEntryName(entry) && (app === null || reportedBy(c, app)));
  };
  // A conditional check the candidate did not need left no blocker (docs/release-gate.md, "Conditional checks"); with
  // nothing recorded at all the decision kept only `no_evidence`, so it counts as missing then.
  const needed = (entry: RequiredCheckEntry) =>
    checkEntryPaths(entry) === null ||
    snapshot.blockers.some((b) => b.component === `check:${checkEntryName(entry)}` || b.code === 'no_evidence');
  return [
    ...gate.required_checks
      .filter((entry) => needed(entry) && !present(entry))
      .map((entry) => ({ kind: 'check_run' as const, name: checkEntryName(entry), ...at })),
    ...gate.required_evidence
      .map(evidenceEntryName)
      .filter((n) => !uploads.has(n))
      .map((name) => ({ kind: 'evidence' as const, name, ...at })),
  ];
}

/** Release health (docs/release-gate.md, "Release gate": health): store reachable, latest attestation fresh, runtime evidence present. */
export async function releaseHealth(ports: ReleasePorts, repoRoot?: RepoScope, now = new Date()): Promise<ReleaseHealth> {
  const started = performance.now();
  const reachable = await ports.store.ping().then(
    () => true,
    () => false,
  );
  const verification_graph = { reachable, latency_ms: Math.round((performance.now() - started) * 100) / 100 };
  if (!reachable) {
    return {
      status: 'failed',
      verification_graph,
      latest_attested_snapshot: null,
      runtime_evidence: { missing: true, items: [] },
      checked_at: now.toISOString(),
    };
  }
  const [[attested], candidates, heartbeat] = await Promise.all([
    ports.store.latestAttested(repoRoot, 1),
    ports.store.latestCandidates(repoRoot),
    ports.latestWorkerHeartbeat(),
  ]);
  const items: RuntimeEvidenceItem[] = [];
  if (!heartbeat || ageSeconds(heartbeat.toISOString(), now) > HEARTBEAT_MAX_AGE_SECONDS)
    items.push({ kind: 'worker_heartbeat', name: 'worker', repo_root: null, commit_sha: null });
  if (!signingKeyWorks(ports))
    items.push({ kind: 'signing_key', name: ports.signer.keyid || 'service', repo_root: null, commit_sha: null });
  for (const { snapshot, gate } of candidates) items.push(...missingFor(snapshot, gateInForce(snapshot.repo_root, gate).gate));
  let latest: ReleaseHealth['latest_attested_snapshot'] = null;
  if (attested) {
    const { gate } = gateInForce(attested.repo_root, await ports.store.latestGate(attested.repo_root));
    const attestedAt = attested.attested_at ?? attested.created_at;
    const age = ageSeconds(attestedAt, now);
    latest = {
      snapshot_id: attested.id,
      repo_root: attested.repo_root,
      commit_sha: attested.commit_sha,
      attested_at: attestedAt,
      age_seconds: age,
      max_age_seconds: gate.attestation_max_age_seconds,
      fresh: age <= gate.attestation_max_age_seconds,
    };
  }
  const degraded = items.length > 0 || (latest !== null && !latest.fresh);
  return {
    status: degraded ? 'degraded' : 'healthy',
    verification_graph,
    latest_attested_snapshot: latest,
    runtime_evidence: { missing: items.length > 0, items },
    checked_at: now.toISOString(),
  };
}
