import type { Execution, ExecutionStatus } from '../executions/execution.js';
import type { NewExecution } from '../executions/execution-store.js';
import type { WorkflowRun } from '../release/evidence.js';
import { WORKFLOW_SESSION_OWNER } from './workflow-session.js';

/** A governed agent session (docs/mcp-gateway.md): an execution of kind `agent_session`, keyed by its id. */
export interface AgentSession {
  id: string;
  owner_id: string;
  /** Whether the owner's account is active (read with the session, so a deactivation is seen at the next request). */
  owner_active: boolean;
  status: ExecutionStatus;
  repo_root: string | null;
  branch: string | null;
  /** The upstream MCP servers the session may reach, by name. */
  servers: string[];
  max_tool_calls: number;
  expires_at: string;
}

export interface NewAgentSession {
  execution: NewExecution;
  servers: string[];
  max_tool_calls: number;
  branch: string | null;
  expires_at: Date;
  /** SHA-256 of the session token: the token itself is shown once and never stored. */
  token_hash: string;
  /**
   * The repository agent key whose MCP session opened it, if one did, and how many of the key's
   * sessions may be open at once (core/mcp/mcp-session-limits.ts).
   */
  agent_key: { id: string; max_open: number } | null;
  /** The GitHub Actions workflow run whose OIDC token opened it, if one did (owned by WORKFLOW_SESSION_OWNER then). */
  workflow_run: WorkflowRun | null;
}

/** A session with what a call through the gateway is checked against, read afresh for each request (one statement). */
export interface AgentSessionCallState extends AgentSession {
  /** The seq the next tool call gets: one more than the last recorded. */
  next_seq: number;
  /**
   * The calls the session has taken from `max_tool_calls`: its entries, and the calls a pre hook
   * allowed whose posts have not recorded them yet (docs/agent-hooks.md, "How a call is decided").
   */
  calls_taken: number;
  /** The digest of the execution's last certificate, which the next one chains to. */
  last_certificate_digest: string | null;
  /** Names the session's upstream registrations as they are now: it changes when one is deleted or registered again. */
  servers_version: string;
}

/** Storage port of agent sessions. Implemented in db/. */
export interface AgentSessionStore {
  /**
   * The execution (status `running`) and its session, in one transaction. An agent key's session
   * is opened under a lock on the key, after counting the key's open sessions (running, not
   * expired) with `requireMcpSessionRoom`: beyond `max_open` it throws RateLimitedError and
   * writes nothing, however many replicas open sessions of the key at once.
   */
  open(session: NewAgentSession): Promise<Execution>;
  get(id: string): Promise<AgentSession | null>;
  byTokenHash(tokenHash: string): Promise<AgentSession | null>;
  /** The session with its call state; null when no such session exists. */
  callState(id: string): Promise<AgentSessionCallState | null>;
  /** The same, by the SHA-256 of the session's token. */
  callStateByToken(tokenHash: string): Promise<AgentSessionCallState | null>;
  /** Those of `ids` whose session is no longer open at `now` (not running, expired, or gone). */
  ended(ids: readonly string[], now: Date): Promise<string[]>;
  /** Ids of the sessions `ownerId` owns that are still `running`. */
  runningOwnedBy(ownerId: string): Promise<string[]>;
  /** Ids of sessions still `running` whose expiry is at or before `now`, oldest expiry first, at most `limit`. */
  expiredRunning(now: Date, limit: number): Promise<string[]>;
  /**
   * Queues the re-posting of the check runs of the open pull requests whose head the session may
   * have covered (docs/mcp-gateway.md, "Sessions and the commits they produced"): one job per
   * session, several requests before it runs coalesce.
   */
  coverageChanged(id: string): Promise<void>;
}

/**
 * Whether the person a session acts for was deactivated (docs/mcp-gateway.md, "Governed agent
 * sessions"): its owner's account is not active. A workflow's session is owned by the built-in
 * account, which is never active and stands for no person (core/mcp/workflow-session.ts).
 */
export function sessionOwnerDeactivated(session: Pick<AgentSession, 'owner_id' | 'owner_active'>): boolean {
  return !session.owner_active && session.owner_id !== WORKFLOW_SESSION_OWNER.id;
}

/** The number the session's next call would be toward its `max_tool_calls`: past it, the call is refused (`tool_call_limit`). */
export function nextCallNumber(state: Pick<AgentSessionCallState, 'calls_taken'>): number {
  return state.calls_taken + 1;
}

/** Whether calls may still be made: the session's execution runs, its time is not up, and its owner was not deactivated. */
export function sessionIsOpen(session: Pick<AgentSession, 'status' | 'expires_at' | 'owner_id' | 'owner_active'>, now: Date): boolean {
  return session.status === 'running' && now.getTime() < Date.parse(session.expires_at) && !sessionOwnerDeactivated(session);
}
