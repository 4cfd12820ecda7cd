import { canonicalDigest } from '../canonical-json.js';
import { issueCertificate } from './issue-certificate.js';
import { PROMOTION_EXTENSION, VERIFICATION_SUMMARY_PREDICATE } from './predicate-types.js';
import { IN_TOTO_STATEMENT_TYPE, type Certificate, type DigestSet, type InTotoStatement, type Signer } from './types.js';

export interface PromotionFacts {
  /** `owner/repo`, lower case. */
  repoRoot: string;
  commitSha: string;
  snapshotId: string;
  /** Digest (hex SHA-256) of the snapshot's evidence, as the snapshot records it. */
  evidenceDigest: string;
  /** Digest (hex SHA-256) of the gate version the decision was evaluated under. */
  gateDigest: string;
  /** Where that gate version is (ResourceUris.gate): the VSA's `policy.uri`. */
  gateUri: string;
  /** The promotion's target status (`attested`, `promoted`, ...). */
  status: string;
  releaseLabel?: string | null;
  /** When the SHIP decision was evaluated; RFC 3339. */
  timeVerified: string;
  /** Defaults to `https://shipgate.dev/release-gate`. */
  verifierId?: string;
  /** Defaults to the GitHub URL of the commit. */
  resourceUri?: string;
  /** Defaults to `SHIPGATE_RELEASE_GATE_PASSED` (custom levels must not start with `SLSA_`). */
  verifiedLevels?: string[];
  /**
   * The independent human approvals the decision counted (docs/release-gate.md, "Agents on pull
   * requests"); absent for a snapshot of a commit no pull request names.
   */
  countedApprovals?: { login: string; commit_sha: string | null }[];
  /**
   * The overrides that lifted blockers of the snapshot (docs/release-gate.md, "Overrides"): who, the
   * SHA-256 of the reason, until when, which blockers; absent when it shipped without one.
   */
  overrides?: StatementOverride[];
  /** PASSED unless the promotion records a failed verification (e.g. a revocation). */
  verificationResult?: 'PASSED' | 'FAILED';
}

/** An override as the signed statement binds it. */
export interface StatementOverride {
  id: string;
  by: string;
  reason_digest: string;
  expires_at: string;
  blockers: { code: string; component: string }[];
}

export interface VerificationSummary extends Record<string, unknown> {
  verifier: { id: string };
  timeVerified: string;
  resourceUri: string;
  policy: { uri: string; digest: DigestSet };
  verificationResult: 'PASSED' | 'FAILED';
  verifiedLevels: string[];
  [PROMOTION_EXTENSION]: {
    snapshot_id: string;
    evidence_digest: DigestSet;
    status: string;
    release_label: string | null;
    counted_approvals?: { login: string; commit_sha: string | null }[];
    overrides?: (Omit<StatementOverride, 'reason_digest'> & { reason_digest: DigestSet })[];
  };
}

/**
 * A SLSA Verification Summary (v1) statement: this commit of this repository passed the gate
 * (docs/attestations.md, "Promotions"). No `inputAttestations` (optional in VSA v1): the
 * snapshot does not record which certificates the decision verified, and a snapshot digest is
 * not an attestation; the snapshot's evidence digest is in the extension field instead.
 */
export function buildPromotionStatement(facts: PromotionFacts): InTotoStatement<VerificationSummary> {
  return {
    _type: IN_TOTO_STATEMENT_TYPE,
    subject: [{ name: facts.repoRoot, digest: { gitCommit: facts.commitSha } }],
    predicateType: VERIFICATION_SUMMARY_PREDICATE,
    predicate: {
      verifier: { id: facts.verifierId ?? 'https://shipgate.dev/release-gate' },
      timeVerified: facts.timeVerified,
      resourceUri: facts.resourceUri ?? `git+https://github.com/${facts.repoRoot}@${facts.commitSha}`,
      policy: { uri: facts.gateUri, digest: { sha256: facts.gateDigest } },
      verificationResult: facts.verificationResult ?? 'PASSED',
      verifiedLevels: facts.verifiedLevels ?? (facts.verificationResult === 'FAILED' ? ['FAILED'] : ['SHIPGATE_RELEASE_GATE_PASSED']),
      [PROMOTION_EXTENSION]: {
        snapshot_id: facts.snapshotId,
        evidence_digest: { sha256: facts.evidenceDigest },
        status: facts.status,
        release_label: facts.releaseLabel ?? null,
        ...(facts.countedApprovals ? { counted_approvals: facts.countedApprovals } : {}),
        ...(facts.overrides && facts.overrides.length > 0
          ? { overrides: facts.overrides.map((o) => ({ ...o, reason_digest: { sha256: o.reason_digest } })) }
          : {}),
      },
    },
  };
}

/** The promotion certificate: the verification summary, signed. */
export function certifyPromotion(signer: Signer, facts: PromotionFacts, now: () => Date = () => new Date()): Certificate {
  const statement = buildPromotionStatement(facts);
  return issueCertificate(signer, {
    kind: 'promotion',
    theorem: 'release_verified',
    plan_hash: canonicalDigest({
      repo_root: facts.repoRoot,
      commit_sha: facts.commitSha,
      snapshot_id: facts.snapshotId,
      gate_digest: facts.gateDigest,
    }),
    verified_properties: statement.predicate.verificationResult === 'PASSED' ? ['release_gate_passed'] : [],
    issued_at: now().toISOString(),
    subject: statement.subject,
    predicateType: statement.predicateType,
    predicate: statement.predicate,
  });
}
