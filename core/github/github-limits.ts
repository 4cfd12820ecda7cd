/**
 * GitHub's size limits on what shipgate posts, counted here in bytes of UTF-8: a text of N bytes
 * has at most N characters however GitHub counts them, so fitting the bytes fits the limit.
 * Sources and what is trimmed: docs/github-app.md, "Fitting GitHub's limits".
 */

/** A check run's `output.summary` (and `output.text`): `maxLength` 65535 in GitHub's REST description. */
export const CHECK_RUN_SUMMARY_MAX_BYTES = 65_535;

/** An issue or pull request comment's body: GitHub answers 422 "maximum is 65536 characters" above it. */
export const COMMENT_BODY_MAX_BYTES = 65_536;

/**
 * The comment of a deployment protection rule review. GitHub documents 1,024 characters for status
 * reports (the same endpoint without `state`) and nothing for approvals: 1,024 bytes for both.
 */
export const DEPLOYMENT_COMMENT_MAX_BYTES = 1_024;

/** The check run title has no documented limit; the headline is kept short all the same (it heads the comment too). */
export const HEADLINE_MAX_BYTES = 1_000;

/** One table cell or list entry of the report, so no single blocker can crowd out the others. */
export const REPORT_CELL_MAX_BYTES = 1_000;
