import type { ReleaseOverviewReads } from '../db/stores/release/overview-reads.js';

/**
 * The repositories that have records of each kind a list shows: the candidates a list asks GitHub
 * about before it shows only the caller's readable ones (docs/api.md, "Repository access").
 */
export interface RepositoriesWithRecords {
  executions(): Promise<string[]>;
  workflows(): Promise<string[]>;
  snapshots(): Promise<string[]>;
  promotions(): Promise<string[]>;
  deploymentRequests(): Promise<string[]>;
}

/**
 * Reads only the HTTP lists make: no rule is decided on them, so they are the API's ports rather
 * than core's. db/stores/ implements them; server/build-deps.ts builds them once.
 */
export interface ListReads {
  repositoriesWith: RepositoriesWithRecords;
  /** A repository's release overview: its decided commits, decisions per day, a commit's uploads (docs/api.md, "Release overview"). */
  releaseOverview: ReleaseOverviewReads;
}
