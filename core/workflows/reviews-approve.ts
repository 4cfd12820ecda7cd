/**
 * Whether a reviewer stage's reviews approve the release (docs/workflows.md, "Reviewed
 * release"): it submitted at least one review, and every review it submitted approves. A
 * reviewer that said no in any review did not approve, whatever it said before or after: an
 * agent that approved, then retracted ("found a critical bug"), got its release run while any
 * approving review counted. The decision's statement reads the same rule in SQL
 * (db/stores/release/commit-work.ts).
 */
export function reviewsApprove(artifacts: readonly { kind?: string; approved_for_release?: boolean | null }[] | undefined): boolean {
  const reviews = (artifacts ?? []).filter((a) => a.kind === 'review');
  return reviews.length > 0 && reviews.every((a) => a.approved_for_release === true);
}
