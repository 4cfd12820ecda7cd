import { canonicalJson, sha256Hex } from '../canonical-json.js';
import { certifiedClaims, type CertifiedClaims } from './certified-claims.js';
import type { PackagedExecution } from './find-execution-records.js';
import { printableName, show } from './printable-text.js';
import type { Certificate } from './types.js';
import { unverifiedStatement } from './unverified-statement.js';

function execution(cert: Certificate): { claims: CertifiedClaims; outputDigest: unknown } {
  const statement = unverifiedStatement(cert);
  return {
    claims: certifiedClaims(statement?.predicateType, statement?.predicate ?? {}),
    outputDigest: statement?.subject?.[0]?.digest?.sha256,
  };
}

/** The record's fields the execution certificate signs, where they differ from it. */
function finalMismatches(record: Record<string, unknown>, cert: Certificate): string[] {
  const { claims, outputDigest } = execution(cert);
  const problems: string[] = [];
  const differs = (field: string, recorded: unknown, signed: unknown) =>
    problems.push(`${field} ${show(recorded)} but its execution certificate says ${show(signed)}`);
  // A field the record does not carry is not compared: the exporter always writes every one (packages
  // of older versions carried fewer), and the manifest signs what it wrote, absences included.
  const has = (field: string) => Object.hasOwn(record, field);
  if (has('verdict') && record.verdict !== claims.verdict) differs('verdict', record.verdict, claims.verdict);
  // A run without output (failed, or an agent session) is certified over the empty string.
  const output = record.output ?? '';
  if (has('output') && (typeof output !== 'string' || sha256Hex(output) !== outputDigest))
    problems.push(`output differs from the output digest its execution certificate signs (${show(outputDigest)})`);
  if (has('cost_cents') && record.cost_cents !== claims.costCents) differs('cost_cents', record.cost_cents, claims.costCents);
  const policy = (record.policy ?? {}) as Record<string, unknown>;
  for (const field of ['name', 'version', 'digest'] as const)
    if (has('policy') && policy[field] !== claims.policy[field]) differs(`policy.${field}`, policy[field], claims.policy[field]);
  const upstream = Array.isArray(record.upstream_execution_ids) ? record.upstream_execution_ids.map(String).sort() : [];
  const signed = [...claims.upstream.keys()].sort();
  if (has('upstream_execution_ids') && upstream.join(',') !== signed.join(',')) differs('upstream_execution_ids', upstream, signed);
  // In the order signed: the list is the record's own, so any edit, a reordering included, is one.
  // A certificate issued before violations were signed lists none to compare (executionRecordNotes).
  if (has('violations') && claims.violations !== undefined && canonicalJson(record.violations) !== canonicalJson(claims.violations))
    differs('violations', record.violations, claims.violations);
  // A verdict is non_compliant exactly when it has violations (core/agent/decide-verdict.ts): under a
  // certificate that signs only the verdict, violations erased from a non-compliant record show here
  // (one that signs them too has just been compared).
  const listed = Array.isArray(record.violations) ? record.violations.length : null;
  if (claims.violations === undefined && listed !== null && (claims.verdict === 'non_compliant') !== listed > 0)
    problems.push(
      `verdict ${show(claims.verdict)} with ${listed} violation${listed === 1 ? '' : 's'}: a verdict is non_compliant exactly when it has some`,
    );
  return problems;
}

/**
 * What a record could not be held against, for the verifier's notes rather than its failures:
 * the `violations` of an execution whose certificate was issued before shipgate signed them.
 * That certificate still verifies (its signature covers what it says), so an auditor is told
 * that only the manifest, signed at export, covers those violations.
 */
export function executionRecordNotes({ record, certificates }: PackagedExecution): string[] {
  const final = certificates.findLast((c) => c?.kind === 'execution');
  if (!final || !Object.hasOwn(record, 'violations') || execution(final).claims.violations !== undefined) return [];
  return [
    "its execution certificate was issued before shipgate signed violations, so the record's violations are held against the manifest only",
  ];
}

/**
 * An execution record against its own certificates (docs/attestations.md, "The record and its
 * certificates"): the manifest signs whatever the database held at export, so a record edited
 * after signing, or stripped of its last certificates, must be caught by what the certificates
 * signed. A finished execution (completed or failed, with a verdict) carries one execution
 * certificate whose verdict, violations, output digest, cost, policy and upstream are the
 * record's; every certificate is of this execution; every allowed tool call has its certificate
 * (the chain check then links them to the end). One line per problem.
 */
export function executionRecordProblems({ record, certificates, toolCalls }: PackagedExecution): string[] {
  const problems: string[] = [];
  const chained = certificates.filter((c) => c?.kind === 'tool_call' || c?.kind === 'execution');
  const claims = new Map(chained.map((c) => [c, execution(c).claims]));
  for (const [cert, claim] of claims)
    if (claim.executionId !== record.id)
      problems.push(`certificate ${printableName(cert.id)} is of execution ${show(claim.executionId)}, not of this one`);
  const finals = chained.filter((c) => c.kind === 'execution');
  const finished = (record.status === 'completed' || record.status === 'failed') && record.verdict != null;
  if (finals.length > 1) problems.push(`${finals.length} execution certificates, not one`);
  if (finals.length === 0 && finished)
    problems.push(`a ${String(record.status)} execution with a verdict carries no execution certificate`);
  if (finals.length > 0 && !finished)
    problems.push(`status ${show(record.status)} with verdict ${show(record.verdict)}, but an execution certificate was issued`);
  if (finals.length > 0) problems.push(...finalMismatches(record, finals[finals.length - 1]));
  // Each call's certificate by seq, built once: a scan of every certificate for every call was
  // quadratic, and a 1 MB package of 20,000 dummy calls held the verifier 88 s (docs/attestations.md,
  // "What the verifier refuses"). The first certificate of a seq is the one a scan found.
  const bySeq = new Map<unknown, Certificate>();
  for (const [cert, claim] of claims) if (cert.kind === 'tool_call' && !bySeq.has(claim.seq)) bySeq.set(claim.seq, cert);
  // Shown once per certificate: calls sharing a seq would otherwise each write its capability out.
  const signedCapability = new Map<Certificate, string>();
  for (const entry of toolCalls as { seq?: unknown; verdict?: unknown; certificate_id?: unknown; capability?: unknown }[]) {
    if (entry?.verdict !== 'allowed') continue;
    const cert = bySeq.get(entry.seq);
    if (!cert || cert.id !== entry.certificate_id) problems.push(`allowed tool call ${show(entry.seq)} has no certificate of its own`);
    else if (claims.get(cert)!.capability !== entry.capability) {
      if (!signedCapability.has(cert)) signedCapability.set(cert, show(claims.get(cert)!.capability));
      problems.push(
        `tool call ${show(entry.seq)}: capability ${show(entry.capability)} but its certificate says ${signedCapability.get(cert)}`,
      );
    }
  }
  return problems;
}
