/**
 * The predicate types of shipgate's in-toto statements (our own URIs where no standard exists).
 * docs/attestations.md describes each predicate's fields and what changed between versions.
 */
export const ACTION_SAFE_PREDICATE = 'https://shipgate.dev/attestations/action-safe/v2';
export const FINAL_OUTPUT_SAFE_PREDICATE = 'https://shipgate.dev/attestations/final-output-safe/v2';
/** A tool call the gateway refused (docs/attestations.md, "action-denied"): a tool-call certificate whose verdict is `denied`. */
export const ACTION_DENIED_PREDICATE = 'https://shipgate.dev/attestations/action-denied/v1';
/** Issued before v2 (bare hex digests, lineage as `materials`): no longer issued, still verified. */
export const ACTION_SAFE_PREDICATE_V1 = 'https://shipgate.dev/attestations/action-safe/v1';
export const FINAL_OUTPUT_SAFE_PREDICATE_V1 = 'https://shipgate.dev/attestations/final-output-safe/v1';
export const AUDIT_PACKAGE_PREDICATE = 'https://shipgate.dev/attestations/audit-package/v1';
/** SLSA Verification Summary Attestation, used for promotions. */
export const VERIFICATION_SUMMARY_PREDICATE = 'https://slsa.dev/verification_summary/v1';
/** The URI-named extension field of a promotion's verification summary: shipgate's own facts. */
export const PROMOTION_EXTENSION = 'https://shipgate.dev/attestations/promotion/v1';

export const PROVER = 'shipgate-rules/1';
