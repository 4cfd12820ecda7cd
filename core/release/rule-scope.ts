import type { PullRequestFacts } from './authorship.js';
import type { GateRule } from './gate-rules.js';
import { branchMatcher, pathsMatching } from './path-globs.js';
import { touchedPaths } from './pull-request-files.js';

/** Why the facts a rule needs are not known: what a `changed_files_unknown` blocker says. */
export interface UnknownFacts {
  /** `files:<status>`, the blocker's component. */
  status: 'unreadable' | 'file_limit' | 'not_read';
  reason: string;
}

/**
 * Whether a rule applies to a pull request (docs/release-gate.md, "Rules"): `no`, `yes` with the paths it is about
 * (those its path conditions matched, else every path the change touches), or `unknown` when a condition that could
 * still hold needs facts that were not read (fail closed: the caller never ships it).
 */
export type RuleScope =
  { applies: 'no' } | { applies: 'yes'; paths: string[]; byPath: boolean } | { applies: 'unknown'; why: UnknownFacts };

/** The paths the pull request touches (renames under both names), or why they are not known. */
export function touchedPathsOf(pr: PullRequestFacts): { paths: string[] } | { unknown: UnknownFacts } {
  const files = pr.files;
  if (!files) {
    const reason = `Pull request #${pr.number} was read before shipgate read a pull request's files, labels and base branch.`;
    return { unknown: { status: 'not_read', reason } };
  }
  if (files.status !== 'read') {
    const fallback = files.status === 'file_limit' ? 'It changes more files than GitHub lists.' : 'GitHub did not list them.';
    return {
      unknown: { status: files.status, reason: `The files of pull request #${pr.number} are not known: ${files.reason ?? fallback}` },
    };
  }
  return { paths: touchedPaths(files.files) };
}

const notRead = (pr: PullRequestFacts, what: string): UnknownFacts => ({
  status: 'not_read',
  reason: `Pull request #${pr.number} was read before shipgate read its ${what}.`,
});

/** Whether the rule's `if` holds for the pull request, with `agentAuthored` from the gate's agent identity. */
export function ruleScope(rule: GateRule, pr: PullRequestFacts, agentAuthored: boolean): RuleScope {
  const cond = rule.if;
  const unknown: UnknownFacts[] = [];
  if (cond.authored_by === 'agent' && !agentAuthored) return { applies: 'no' };
  if (cond.authored_by === 'person' && agentAuthored) return { applies: 'no' };
  if (cond.base_branches) {
    if (pr.base_ref === undefined) unknown.push(notRead(pr, 'base branch'));
    else if (!branchMatcher(cond.base_branches)(pr.base_ref)) return { applies: 'no' };
  }
  if (cond.labels) {
    if (pr.labels === undefined) unknown.push(notRead(pr, 'labels'));
    else if (!cond.labels.some((l) => pr.labels?.includes(l))) return { applies: 'no' };
  }
  const byPath = cond.paths !== undefined || cond.paths_ignore !== undefined;
  // Code owners are judged file by file, so a rule that needs them needs the files even without a path condition.
  if (!byPath && !rule.require.approvers?.codeowners) {
    return unknown.length > 0 ? { applies: 'unknown', why: unknown[0] } : { applies: 'yes', paths: [], byPath };
  }
  const touched = touchedPathsOf(pr);
  if ('unknown' in touched) return { applies: 'unknown', why: unknown[0] ?? touched.unknown };
  let paths = touched.paths;
  if (byPath) {
    paths = pathsMatching(paths, cond.paths, cond.paths_ignore);
    if (paths.length === 0) return { applies: 'no' };
  }
  return unknown.length > 0 ? { applies: 'unknown', why: unknown[0] } : { applies: 'yes', paths, byPath };
}
