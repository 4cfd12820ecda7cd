import type { Page, PageRequest } from '../pagination.js';

/** How a held gateway call ended (docs/mcp-gateway.md, "Asking a person"); null while pending. */
export type CallApprovalDecision = 'approved' | 'denied' | 'timed_out' | 'session_ended';

/**
 * The most calls of one session a coding agent's hooks may hold awaiting a decision at once
 * (docs/agent-hooks.md, "How a call is decided"): each holds an HTTP request open and is polled,
 * so one session token could otherwise hold any number. The gateway holds one call per session
 * on a replica (a session's calls are serialised there).
 */
export const MAX_HELD_HOOK_CALLS = 4;

/** The first bytes of a held call's arguments (their JSON) the pending list shows (docs/mcp-gateway.md, "Asking a person"). */
export const PENDING_ARGUMENTS_BYTES = 4096;

/** A gateway call held for a person's decision, as the agent asked it. */
export interface NewAgentCallApproval {
  execution_id: string;
  seq: number;
  tool: string;
  arguments: Record<string, unknown>;
  arguments_digest: string;
  capability: string;
  requested_at: Date;
  deadline: Date;
}

/** A held call with its session's people (who may not decide it) and its decision, if one. */
export interface AgentCallApproval {
  id: string;
  execution_id: string;
  seq: number;
  tool: string;
  arguments: Record<string, unknown>;
  arguments_digest: string;
  capability: string;
  requested_at: string;
  deadline: string;
  /** The agent session's owner and, for a key's session, the key's creator: neither may decide. */
  owner_id: string;
  owner_name: string | null;
  agent_key_creator: string | null;
  /**
   * For a session a GitHub Actions workflow opened, the account linked to the GitHub login that
   * triggered the run (its `workflow_run.actor`), who may not decide either; null otherwise.
   */
  workflow_actor_id: string | null;
  repo_root: string | null;
  decision: CallApprovalDecision | null;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_at: string | null;
  reason: string | null;
}

/**
 * A held call as the pending list shows it: its arguments only when their JSON fits
 * PENDING_ARGUMENTS_BYTES, else null with their first bytes (`arguments_excerpt`) and
 * `arguments_truncated` (the whole arguments: `get`, one call at a time).
 */
export interface PendingAgentCall extends Omit<AgentCallApproval, 'arguments'> {
  arguments: Record<string, unknown> | null;
  arguments_truncated: boolean;
  arguments_excerpt: string | null;
}

/**
 * What a held call's wait reads each time it looks (core/mcp/await-call-approval.ts): the decision,
 * never the arguments, and whether its session may still make calls.
 */
export interface HeldCallState {
  id: string;
  capability: string;
  deadline: string;
  decision: CallApprovalDecision | null;
  decided_by: string | null;
  decided_by_name: string | null;
  reason: string | null;
  /** Its session runs, before its expiry, its owner not deactivated and its agent key (if one) not revoked. */
  session_live: boolean;
}

/** Storage port of held gateway calls. Implemented in db/. */
export interface AgentCallApprovals {
  /** Records the call as pending; its id. */
  ask(call: NewAgentCallApproval): Promise<string>;
  /**
   * Records the call as pending only while its session holds fewer than `atMost` pending calls
   * (one ask of a session at a time, on every replica): its id, or `{ held }`, how many it holds,
   * recording nothing.
   */
  askWithin(call: NewAgentCallApproval, atMost: number): Promise<string | { held: number }>;
  get(id: string): Promise<AgentCallApproval | null>;
  /** The state a held call's wait reads (no arguments); null: no such call. */
  state(id: string, now: Date): Promise<HeldCallState | null>;
  /**
   * Pending calls whose deadline is after `now` and whose session is live, oldest first, a page at a
   * time, only of `repoRoots` (and of no repository) when given.
   */
  pending(now: Date, page: PageRequest, repoRoots?: readonly string[]): Promise<Page<PendingAgentCall>>;
  /** The repositories of the pending calls (the candidates a list asks GitHub about). */
  pendingRepositories(now: Date): Promise<string[]>;
  /**
   * A person's decision, if the call is still pending, before its deadline, and its session is
   * still live (running, not expired, owner active, agent key not revoked), in one statement that
   * takes a share lock on the session's execution and key rows, so a close, cancel or revocation
   * is ordered before or after it: `decided` says whether this decision is the one that stands,
   * `ended` that the session's end refused it. Null: no such call.
   */
  decide(
    id: string,
    decision: 'approved' | 'denied',
    by: string,
    reason: string | null,
    at: Date,
  ): Promise<{ approval: AgentCallApproval; decided: boolean; ended: boolean } | null>;
  /** Settles a pending call without a person (its deadline passed or its session ended); whether it did. */
  settle(id: string, decision: 'timed_out' | 'session_ended', reason: string, at: Date): Promise<boolean>;
}
