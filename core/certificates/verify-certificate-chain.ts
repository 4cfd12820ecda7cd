import { canonicalDigest } from '../canonical-json.js';
import type { ToolCallEntry } from '../executions/execution.js';
import { certifiedClaims, type CertifiedClaims } from './certified-claims.js';
import { checkCertificate, type CertificateCheck } from './check-certificate.js';
import { toolCallDigest } from './tool-call-digest.js';
import type { Certificate, Verifier } from './types.js';
import { unverifiedStatement } from './unverified-statement.js';

interface Link {
  index: number;
  cert: Certificate;
  claims: CertifiedClaims;
}

/** What the predicate claims, verified or not (the signature is checked apart), in either version. */
function claimsOf(cert: Certificate): CertifiedClaims {
  const statement = unverifiedStatement(cert);
  return certifiedClaims(statement?.predicateType, statement?.predicate ?? {});
}

function chainOrder(a: Link, b: Link): number {
  const rank = (l: Link) => (l.cert.kind === 'execution' ? Number.MAX_SAFE_INTEGER : Number(l.claims.seq));
  return rank(a) - rank(b) || a.index - b.index;
}

function fail(results: CertificateCheck[], index: number, reason: string, detail: string): void {
  if (results[index].verified) results[index] = { id: results[index].id, verified: false, reason, detail };
}

/**
 * The tool-call entries as each chain reads them, built once per package group: a scan of every
 * entry for every certificate, and every entry's digest again for each chain, were quadratic (a
 * 1 MB package of 20,000 dummy calls held the verifier 88 s; docs/attestations.md, "What the
 * verifier refuses", says a check at the limits takes seconds).
 */
interface RecordedCalls {
  /** The first entry of each seq in seq order: the one a scan of the sorted list found. */
  bySeq: Map<unknown, ToolCallEntry>;
  count: number;
  /** The digest of the list of entry digests in seq order, made when an execution certificate asks for it. */
  digest: () => string;
}

function recordedCalls(toolCalls: ToolCallEntry[]): RecordedCalls {
  const ordered = [...toolCalls].sort((a, b) => a.seq - b.seq);
  const bySeq = new Map<unknown, ToolCallEntry>();
  for (const entry of ordered as (ToolCallEntry | null)[]) if (entry !== null && !bySeq.has(entry.seq)) bySeq.set(entry.seq, entry);
  let digest: string | undefined;
  return { bySeq, count: ordered.length, digest: () => (digest ??= canonicalDigest(ordered.map(toolCallDigest))) };
}

/** Entries that disagree with the certificates issued for them. */
function checkAgainstToolCalls(links: Link[], recorded: RecordedCalls, results: CertificateCheck[]): void {
  for (const link of links) {
    const p = link.claims;
    if (link.cert.kind === 'execution') {
      if (canonicalDigest(p.toolCalls ?? null) !== recorded.digest()) {
        fail(
          results,
          link.index,
          'tool_calls_mismatch',
          `the certified tool-call digests (${(p.toolCalls as unknown[] | undefined)?.length ?? 0}) do not match the ${recorded.count} recorded tool calls`,
        );
      }
    } else if (p.denied) {
      // A refused call: the entry must be that refusal, of those very arguments.
      const entry = recorded.bySeq.get(p.seq);
      const same =
        entry?.verdict === 'denied' &&
        entry.tool === p.tool &&
        entry.reason === p.denied.reason &&
        canonicalDigest(entry.arguments ?? null) === p.denied.argumentsDigest;
      if (!same)
        fail(results, link.index, 'tool_call_mismatch', `denied tool call ${String(p.seq)} is missing or differs from what was certified`);
    } else {
      const entry = recorded.bySeq.get(p.seq);
      if (!entry || entry.verdict !== 'allowed' || entry.tool !== p.tool || entry.result_digest !== p.resultDigest) {
        fail(results, link.index, 'tool_call_mismatch', `tool call ${String(p.seq)} is missing or differs from what was certified`);
      }
    }
  }
}

/**
 * Verifies the certificates of executions: each one on its own, then per execution the `prev`
 * links (tool calls in seq order, the execution certificate last) and, given the tool-call
 * entries, that they are exactly what was certified. A removed, reordered or altered
 * certificate breaks the chain at its successor. Results are in input order.
 */
export function verifyCertificateChain(certs: Certificate[], verifier: Verifier, toolCalls?: ToolCallEntry[]): CertificateCheck[] {
  const results: CertificateCheck[] = certs.map((cert) => {
    const { statement: _statement, ...check } = checkCertificate(cert, verifier);
    return check;
  });
  const chains = new Map<string, Link[]>();
  certs.forEach((cert, index) => {
    if (cert?.kind !== 'tool_call' && cert?.kind !== 'execution') return;
    const claims = claimsOf(cert);
    const key = String(claims.executionId);
    // Appended in place: a copy of the chain for each certificate was quadratic too.
    const chain = chains.get(key);
    if (chain) chain.push({ index, cert, claims });
    else chains.set(key, [{ index, cert, claims }]);
  });
  let recorded: RecordedCalls | undefined;
  for (const links of chains.values()) {
    links.sort(chainOrder);
    let prev: string | null = null;
    let prevName = 'the start of the chain';
    for (const link of links) {
      const name = link.cert.kind === 'execution' ? 'the execution certificate' : `tool call ${String(link.claims.seq)}`;
      if (link.claims.prev !== prev) fail(results, link.index, 'broken_chain', `prev of ${name} does not link to ${prevName}`);
      prev = canonicalDigest(link.cert.envelope ?? null);
      prevName = name;
    }
    if (toolCalls) checkAgainstToolCalls(links, (recorded ??= recordedCalls(toolCalls)), results);
  }
  return results;
}
