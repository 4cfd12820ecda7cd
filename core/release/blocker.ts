/** Every reason a commit can be NO_SHIP (docs/release-gate.md, "Release gate": blockers). */
export const BLOCKER_CODES = [
  'no_evidence',
  'required_check_missing',
  'required_check_pending',
  'required_check_failed',
  // A check of a pinned entry's name reported only by another source: someone must find out who (never waitable).
  'required_check_wrong_source',
  'required_evidence_missing',
  'required_evidence_failed',
  'evidence_content_failed',
  'runtime_evidence_stale',
  'no_execution_evidence_bound_to_snapshot',
  'workflow_incomplete',
  'release_not_admitted',
  'execution_non_compliant',
  'certificate_invalid',
  'agent_change_ungoverned',
  'human_approval_missing',
  'agent_provenance_unknown',
  // Rules by what a change touches (docs/release-gate.md, "Rules").
  'rule_not_met',
  'rule_disapproved',
  'changed_files_unknown',
  // The head of more than one open pull request (docs/release-gate.md, "One pull request per head"): never waitable.
  'pull_request_ambiguous',
] as const;

export type BlockerCode = (typeof BLOCKER_CODES)[number];

/**
 * The blockers that time alone can clear: nothing recorded yet, a required check not reported
 * yet or still running, required evidence not uploaded yet. Every other blocker needs someone to
 * act (a failed check, stale evidence, a refused or unfinished workflow). The check run, the
 * deployment rule and the API's `waitable` all read this (docs/release-gate.md, "What clients read
 * from a decision").
 */
export const WAITABLE_BLOCKER_CODES = [
  'no_evidence',
  'required_check_missing',
  'required_check_pending',
  'required_evidence_missing',
] as const satisfies readonly BlockerCode[];

const waitable: ReadonlySet<BlockerCode> = new Set(WAITABLE_BLOCKER_CODES);

/**
 * A pull request's authorship not read yet (`agent_provenance_unknown` on `authorship:pending`)
 * is a wait like a pending check; unreadable or over the commit limit, it is not.
 */
export const PENDING_AUTHORSHIP_COMPONENT = 'authorship:pending';

/** Likewise a pull request's files not read yet (`changed_files_unknown` on `files:pending`). */
export const PENDING_FILES_COMPONENT = 'files:pending';

export function isWaitable(blocker: Pick<Blocker, 'code' | 'component'>): boolean {
  return (
    waitable.has(blocker.code) ||
    (blocker.code === 'agent_provenance_unknown' && blocker.component === PENDING_AUTHORSHIP_COMPONENT) ||
    (blocker.code === 'changed_files_unknown' && blocker.component === PENDING_FILES_COMPONENT)
  );
}

/** NO_SHIP only because of blockers time can clear: report it as waiting, not failed. */
export function onlyWaitable(blockers: readonly Pick<Blocker, 'code' | 'component'>[]): boolean {
  return blockers.length > 0 && blockers.every(isWaitable);
}

export interface Blocker {
  code: BlockerCode;
  /**
   * What it is about: `commit`, `check:<name>`, `evidence:<name>`, `evidence:<name>:<rule>` (a broken content rule), `workflows`, `workflow:<id>`, `execution:<id>`,
   * `commit:<sha>`, `pull_request:<number>`, `pull_requests:<n>,<m>,...`, `authorship:<pending|unreadable|commit_limit>`, `rule:<name>` (a rule of the
   * gate, or `rule:protected_paths`), `files:<pending|unreadable|file_limit|not_read>` (a pull request's files).
   */
  component: string;
  reason: string;
  remediation_suggestion: string;
}

/** One requirement of the gate and whether the commit meets it. */
export interface Requirement {
  /** The gate field it comes from (`required_checks`, ...) or `evidence` / `bound_workflows`. */
  policy: string;
  requirement: string;
  satisfied: boolean;
  remediation: string | null;
}

/** What one area of the gate contributes to a decision. */
export interface Findings {
  requirements: Requirement[];
  blockers: Blocker[];
}

export function blocker(code: BlockerCode, component: string, reason: string, remediation: string): Blocker {
  return { code, component, reason, remediation_suggestion: remediation };
}

/** Keeps the first blocker of each (code, component): blockers are distinct. */
export function distinctBlockers(blockers: Blocker[]): Blocker[] {
  const seen = new Set<string>();
  return blockers.filter((b) => {
    const key = `${b.code}\u0000${b.component}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
