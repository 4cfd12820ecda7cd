import { createVerifier } from './create-verifier.js';
import { executionRecordNotes, executionRecordProblems } from './execution-record-problems.js';
import { findCertificateGroups } from './find-certificate-groups.js';
import { findExecutionRecords } from './find-execution-records.js';
import { AUDIT_PACKAGE_PREDICATE } from './predicate-types.js';
import { keyIdOfJwk, type VerificationJwk } from './public-jwk.js';
import { manifestProblems } from './manifest-problems.js';
import { packageMembers, type PackageManifest } from './sign-package.js';
import type { InTotoStatement } from './types.js';
import { usableJwks } from './usable-jwks.js';
import { verifyCertificateChain } from './verify-certificate-chain.js';
import { checkLineage } from '../workflows/check-lineage.js';

export type PackageFailure = { member: string; reason: string } | { certificate: string; path: string; reason: string; detail?: string };

export interface PackageVerification {
  ok: boolean;
  failures: PackageFailure[];
  /** The key the manifest verified under, when it did. */
  manifestKeyid?: string;
  certificatesChecked: number;
  /** What verified but was not checked against a signature, for the reader (a certificate issued before it signed a field). */
  notes: string[];
}

function signedMembers(statement: InTotoStatement): Map<string, string> {
  return new Map(statement.subject.map((s) => [s.name, s.digest?.sha256]));
}

function compareMembers(pkg: Record<string, unknown>, expected: Map<string, string | undefined>, failures: PackageFailure[]): void {
  const actual = new Map(packageMembers(pkg).map((m) => [m.name, m.sha256]));
  for (const [name, digest] of expected) {
    if (!actual.has(name)) failures.push({ member: name, reason: 'removed: listed in the manifest but missing from the package' });
    else if (actual.get(name) !== digest)
      failures.push({ member: name, reason: `altered: sha256 ${actual.get(name)} but the manifest says ${digest}` });
  }
  for (const name of actual.keys()) {
    if (!expected.has(name)) failures.push({ member: name, reason: 'added: not listed in the manifest' });
  }
}

/**
 * Checks an audit package offline: the manifest's signature, every member against the
 * signed digests (altered, removed or added members), and every certificate in it
 * (signature, digest, chain, tool calls); for a workflow package, the lineage as well.
 */
export function verifyPackage(pkg: Record<string, unknown>, publicKeys: readonly VerificationJwk[]): PackageVerification {
  const verifier = createVerifier(publicKeys);
  const failures: PackageFailure[] = [];
  const manifest = pkg?.manifest as PackageManifest | undefined;
  let manifestKeyid: string | undefined;
  if (!manifest?.envelope) {
    failures.push({ member: 'manifest', reason: 'missing: the package has no signed manifest' });
  } else {
    const result = verifier.verify(manifest.envelope);
    if (!result.verified || result.statement?.predicateType !== AUDIT_PACKAGE_PREDICATE) {
      failures.push({ member: 'manifest', reason: `signature does not verify (${result.reason ?? 'not an audit package manifest'})` });
      // Still say which members disagree with what the manifest claims.
      compareMembers(pkg, new Map((Array.isArray(manifest.members) ? manifest.members : []).map((m) => [m?.name, m?.sha256])), failures);
    } else {
      const known = new Set(usableJwks(publicKeys).keys.map(keyIdOfJwk));
      manifestKeyid = manifest.envelope.signatures.find((s) => known.has(s.keyid))?.keyid;
      const expected = signedMembers(result.statement);
      compareMembers(pkg, expected, failures);
      for (const reason of manifestProblems(pkg, result.statement)) failures.push({ member: 'manifest', reason });
    }
  }
  let certificatesChecked = 0;
  for (const group of findCertificateGroups(pkg)) {
    certificatesChecked += group.certificates.length;
    for (const check of verifyCertificateChain(group.certificates, verifier, group.toolCalls)) {
      if (!check.verified)
        failures.push({ certificate: check.id, path: group.path, reason: check.reason ?? 'unverified', detail: check.detail });
    }
  }
  // The records must say what their own certificates signed.
  const notes: string[] = [];
  for (const packaged of findExecutionRecords(pkg)) {
    for (const problem of executionRecordProblems(packaged))
      failures.push({ member: packaged.path, reason: `record_mismatch: ${problem}` });
    for (const note of executionRecordNotes(packaged)) notes.push(`member '${packaged.path}': ${note}`);
  }
  // A workflow package also proves which upstream executions each stage was bound to.
  for (const problem of checkLineage(pkg)) failures.push({ member: 'lineage', reason: problem });
  return { ok: failures.length === 0, failures, manifestKeyid, certificatesChecked, notes };
}
