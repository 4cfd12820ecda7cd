/** The predicate types of shipgate's in-toto statements (our own URIs where no standard exists). */
export const ACTION_SAFE_PREDICATE = 'https://shipgate.dev/attestations/action-safe/v1';
export const FINAL_OUTPUT_SAFE_PREDICATE = 'https://shipgate.dev/attestations/final-output-safe/v1';
export const AUDIT_PACKAGE_PREDICATE = 'https://shipgate.dev/attestations/audit-package/v1';
/** SLSA Verification Summary Attestation, used for promotions. */
export const VERIFICATION_SUMMARY_PREDICATE = 'https://slsa.dev/verification_summary/v1';

export const PROVER = 'shipgate-rules/1';
