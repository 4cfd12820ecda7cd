/** Every reason a commit can be NO_SHIP (docs/release-gate.md, "Release gate": blockers). */
export const BLOCKER_CODES = [
  'no_evidence',
  'required_check_missing',
  'required_check_pending',
  'required_check_failed',
  'required_evidence_missing',
  'required_evidence_failed',
  'runtime_evidence_stale',
  'no_execution_evidence_bound_to_snapshot',
  'workflow_incomplete',
  'release_not_admitted',
  'execution_non_compliant',
  'certificate_invalid',
] as const;

export type BlockerCode = (typeof BLOCKER_CODES)[number];

export interface Blocker {
  code: BlockerCode;
  /** What it is about: `commit`, `check:<name>`, `evidence:<name>`, `workflows`, `workflow:<id>`, `execution:<id>`. */
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
