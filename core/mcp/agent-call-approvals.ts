/** How a held gateway call ended (docs/mcp-gateway.md, "Asking a person"); null while pending. */
export type CallApprovalDecision = 'approved' | 'denied' | 'timed_out' | 'session_ended';

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
  repo_root: string | null;
  decision: CallApprovalDecision | null;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_at: string | null;
  reason: string | null;
}

/** Storage port of held gateway calls. Implemented in db/. */
export interface AgentCallApprovals {
  /** Records the call as pending; its id. */
  ask(call: NewAgentCallApproval): Promise<string>;
  get(id: string): Promise<AgentCallApproval | null>;
  /** Every pending call whose deadline is after `now`, oldest first. */
  pending(now: Date): Promise<AgentCallApproval[]>;
  /**
   * Decides the call if it is still pending (and, for a person's decision, before its deadline), in
   * one statement: `decided` says whether this decision is the one that stands. Null: no such call.
   */
  decide(
    id: string,
    decision: CallApprovalDecision,
    by: string | null,
    reason: string | null,
    at: Date,
  ): Promise<{ approval: AgentCallApproval; decided: boolean } | null>;
}
