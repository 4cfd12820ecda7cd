import type { OpenHead, SessionFacts } from './session-coverage.js';

/** An agent session's window and the heads of the repository's open pull requests it may have covered. */
export interface SessionOpenHeads {
  repo_root: string;
  session: Pick<SessionFacts, 'branch' | 'started_at' | 'finished_at' | 'expires_at'>;
  heads: OpenHead[];
}

/**
 * What the session recheck reads (docs/mcp-gateway.md, "Sessions and the commits they produced"):
 * facts only; `headsToRecheck` (session-coverage.ts) decides which heads are evaluated again.
 */
export interface SessionHeadsReader {
  /** null when the session has no repository (or is gone). */
  openHeads(sessionId: string): Promise<SessionOpenHeads | null>;
}
