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

/** What shipgate read from an uploaded document (its EvidenceSummary schema), one shape per format. */
export type EvidenceSummary =
  | { format: 'junit'; total: number; failed: number; errored: number; skipped: number; failing: string[] }
  | {
      format: 'sarif';
      results: number;
      by_level: { error: number; warning: number; note: number; none: number };
      by_rule: { rule_id: string; level: string; count: number }[];
    }
  | {
      format: 'cyclonedx' | 'spdx';
      spec_version: string;
      components: number;
      licenses: { expression: string; count: number }[];
      unlicensed: string[];
      unlicensed_count: number;
    }
  | {
      format: 'provenance';
      builder_id: string;
      build_type: string;
      subjects_count: number;
      source_commits: string[];
      signatures: number;
      verified_keys: string[];
    };

export interface EvidenceRecord {
  id: string;
  name: string;
  status: string;
  digest: string | null;
  uri: string | null;
  /** Present when the evidence carries a document shipgate read. */
  format?: string | null;
  summary?: EvidenceSummary | null;
}
