import { reviewsApprove } from './reviews-approve.js';
import { certifiedClaims } from '../certificates/certified-claims.js';
import { decodeStrictBase64 } from '../certificates/strict-base64.js';
import type { Certificate } from '../certificates/types.js';

interface PackagedExecution {
  id?: string;
  verdict?: string | null;
  upstream_execution_ids?: string[];
  certificates?: Certificate[];
  artifacts?: { kind?: string; approved_for_release?: boolean }[];
}

interface LineageEntry {
  stage_id?: string;
  execution_id?: string;
  upstream?: { stage_id?: string; execution_id?: string; certificate_digest?: string | null }[];
}

/** The lineage the execution certificate signs (either predicate version): upstream execution id -> certificate digest. */
function signedUpstream(execution: PackagedExecution): Map<string, string> | null {
  const certificate = execution.certificates?.findLast((c) => c?.kind === 'execution');
  const payload = certificate ? decodeStrictBase64(String(certificate.envelope?.payload)) : null;
  if (!payload) return null;
  try {
    const statement = JSON.parse(payload.toString('utf8')) as { predicateType?: unknown; predicate?: Record<string, unknown> };
    return certifiedClaims(statement.predicateType, statement.predicate ?? {}).upstream;
  } catch {
    return null;
  }
}

const finalDigest = (execution: PackagedExecution | undefined) => execution?.certificates?.findLast((c) => c?.kind === 'execution')?.digest;

/**
 * The review-then-release linkage of a workflow package, checked offline: every lineage entry
 * names its stage's packaged execution, each upstream's certificate digest is that upstream's
 * execution certificate, and the stage's own signed certificate names exactly those digests as
 * its upstream; a completed release stage's upstreams are compliant and approved the release.
 * Returns one line per problem (the certificates themselves are verified elsewhere).
 */
export function checkLineage(pkg: Record<string, unknown>): string[] {
  if (!Array.isArray(pkg.lineage)) return [];
  const stages = Array.isArray(pkg.stages) ? (pkg.stages as { stage_id?: string; execution?: PackagedExecution | null }[]) : [];
  const workflowStages = ((pkg.workflow as { stages?: { id?: string; stage_role?: string; status?: string }[] })?.stages ?? []) as {
    id?: string;
    stage_role?: string;
    status?: string;
  }[];
  // Looked up by id, the first of each id as `find` took it: a search per entry made a hostile package quadratic.
  const firstBy = <T>(items: readonly T[], id: (item: T) => unknown) => {
    const map = new Map<unknown, T>();
    for (const item of items) if (!map.has(id(item))) map.set(id(item), item);
    return map;
  };
  const stageById = firstBy(stages, (s) => s?.stage_id);
  const roleById = firstBy(workflowStages, (s) => s?.id);
  const executionOf = (stageId: string | undefined) => stageById.get(stageId)?.execution ?? undefined;
  const problems: string[] = [];
  for (const entry of pkg.lineage as LineageEntry[]) {
    const where = `stage ${String(entry?.stage_id)}`;
    const execution = executionOf(entry?.stage_id);
    if (!execution || execution.id !== entry.execution_id) {
      problems.push(`${where}: execution ${String(entry?.execution_id)} is not the stage's packaged execution`);
      continue;
    }
    const upstream = entry.upstream ?? [];
    const signed = signedUpstream(execution);
    const expected = new Map(upstream.map((u) => [String(u.execution_id), String(u.certificate_digest)]));
    if (signed && (signed.size !== expected.size || [...expected].some(([id, digest]) => signed.get(id) !== digest)))
      problems.push(`${where}: its execution certificate's signed upstream differs from the lineage's upstream certificate digests`);
    if ((execution.upstream_execution_ids ?? []).join(',') !== upstream.map((u) => u.execution_id).join(','))
      problems.push(`${where}: upstream_execution_ids differ from the lineage`);
    const role = roleById.get(entry.stage_id);
    for (const u of upstream) {
      const up = executionOf(u.stage_id);
      if (!up || up.id !== u.execution_id || finalDigest(up) !== u.certificate_digest) {
        problems.push(`${where}: upstream stage ${String(u.stage_id)} does not match its packaged execution certificate`);
      } else if (role?.stage_role === 'release' && role.status === 'completed') {
        if (up.verdict !== 'compliant') problems.push(`${where}: released after a non-compliant upstream ${String(u.stage_id)}`);
        if (!reviewsApprove(up.artifacts))
          problems.push(`${where}: released without ${String(u.stage_id)}'s reviews approving (each must; none may refuse)`);
      }
    }
  }
  return problems;
}
