// Compliance policies, one row per version.

export interface PolicyRow {
  name: string;
  version: number;
  /** The Policy as JSON, version included. */
  body: unknown;
  digest: string;
  created_by: string | null;
  created_at: Date;
}
