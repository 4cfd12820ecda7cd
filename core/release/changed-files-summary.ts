import type { PullRequestFacts } from './authorship.js';
import type { ChangedFilesSummary } from './rule-outcome.js';

/** How many paths the decision's `authorship.changed_files` shows; the count says how many there are. */
export const CHANGED_FILES_SHOWN = 20;

/**
 * The decision's account of what a pull request changes, from its stored facts (docs/release-gate.md,
 * "Changed files"): `not_read` for facts read before shipgate read files; no count when GitHub did
 * not list them (`unreadable`); GitHub's count and no paths beyond its list (`file_limit`).
 */
export function changedFilesSummary(facts: PullRequestFacts): ChangedFilesSummary {
  const files = facts.files;
  if (!files) return { count: null, paths: [], status: 'not_read' };
  if (files.status === 'unreadable') return { count: null, paths: [], status: 'unreadable' };
  return { count: files.total, paths: files.files.slice(0, CHANGED_FILES_SHOWN).map((f) => f.path), status: files.status };
}
