import type { ApprovalRefusal } from './authorship.js';

/**
 * How one applying rule of the gate's `rules` (or the protected paths, named `protected_paths`)
 * was judged for a pull request head (docs/release-gate.md, "Rules"): what the decision's
 * `authorship.rules`, the check run, the comment and the studio show, and what the snapshot binds.
 */
export interface RuleOutcome {
  /** The rule's name (`protected_paths` for the gate's protected paths). */
  name: string;
  met: boolean;
  /** The first few changed paths that made the rule apply (empty when no path condition made it). */
  triggered_by: string[];
  /** What is missing, in words ("needs 2 approvals from acme/sre; has 1: @ana"); null when met. */
  missing: string | null;
  /** Logins whose "changes requested" review blocks the rule until they approve or it is dismissed. */
  disapproved_by: string[];
  /** The approvals this rule counted, and those it did not with why. */
  approvals: { login: string; counted: boolean; reason: ApprovalRefusal | 'not_an_approver' | null }[];
}

/** The decision's account of what the pull request changes: how many files, and the first 20 paths. */
export interface ChangedFilesSummary {
  /** null when the files could not be read (then `status` says why). */
  count: number | null;
  paths: string[];
  status: 'read' | 'file_limit' | 'unreadable' | 'not_read';
}
