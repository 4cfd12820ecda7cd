/** The parts of shipgate's HTTP answers the Action reads (the service's OpenAPI document has all of them). */
export interface Blocker {
  code: string;
  component: string;
  reason: string;
  remediation_suggestion: string;
  /** Time alone can clear it (the service decides which blockers are). */
  waitable: boolean;
}

export interface ReleaseDecision {
  decision: 'SHIP' | 'NO_SHIP';
  repo_root: string;
  commit_sha: string;
  snapshot_id: string;
  blockers: Blocker[];
  /** The decision's page in the studio, under the service's public URL. */
  decision_url: string;
}

export interface EvidenceRecord {
  id: string;
  name: string;
  status: string;
  digest: string | null;
  uri: string | null;
}
