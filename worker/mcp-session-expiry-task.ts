import type { CronItem, Task } from 'graphile-worker';
import type { Certifier } from '../core/agent/certifier.js';
import type { ExecutionJournal } from '../core/agent/journal.js';
import type { AgentSessionStore } from '../core/mcp/agent-session.js';
import { closeAgentSession } from '../core/mcp/close-agent-session.js';

/** Sessions ended per statement that lists them; a sweep goes on until none is left. */
const SWEEP_BATCH = 100;

/**
 * Every minute (graphile-worker's cron: one job per minute across all workers, none backfilled
 * after downtime, since the next sweep ends what a missed one would have), so an expired session
 * is ended within about a minute of its expiry.
 */
export const MCP_SESSION_EXPIRY_CRON: CronItem = {
  task: 'mcp_session_expiry',
  match: '* * * * *',
  identifier: 'mcp_session_expiry',
  options: { backfillPeriod: 0, maxAttempts: 1 },
};

export interface SessionExpiryDeps {
  agentSessions: Pick<AgentSessionStore, 'expiredRunning' | 'coverageChanged'>;
  journal: ExecutionJournal;
  certifier: Certifier;
  now(): Date;
  log(event: string, fields: Record<string, unknown>): void;
}

/**
 * mcp_session_expiry: ends every agent session still `running` past its expiry, as closing it
 * does (core/mcp/close-agent-session.ts: `completed`, the verdict from its recorded calls, the
 * execution certificate), whether or not anyone calls it again (docs/mcp-gateway.md, "Expiry").
 * A session that fails to end is logged and left for the next sweep.
 */
export function mcpSessionExpiryTask(deps: SessionExpiryDeps): Task {
  return async () => {
    const failed = new Set<string>();
    let ended = 0;
    for (;;) {
      const due = (await deps.agentSessions.expiredRunning(deps.now(), SWEEP_BATCH + failed.size)).filter((id) => !failed.has(id));
      for (const id of due) {
        try {
          await closeAgentSession(deps, id);
          ended += 1;
        } catch (error) {
          failed.add(id);
          deps.log('mcp.session_expiry_failed', { execution_id: id, error: (error as Error).message });
        }
      }
      if (due.length < SWEEP_BATCH) break;
    }
    if (ended > 0) deps.log('mcp.sessions_expired', { ended });
  };
}
