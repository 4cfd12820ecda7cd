import type { AgentSessionCallState } from '../mcp/agent-session.js';

/** The coding agents whose hooks shipgate answers (docs/agent-hooks.md). */
export const HOOK_AGENTS = ['claude-code', 'copilot', 'gemini'] as const;
export type HookAgent = (typeof HOOK_AGENTS)[number];

/** One tool call as a hook reports it, whatever the agent's own field names. */
export interface HookToolCall {
  /** The agent's own session id (Claude `session_id`, Copilot `sessionId`). */
  cliSessionId: string;
  /** The repository root the call's paths are relative to. */
  cwd: string;
  tool: string;
  input: Record<string, unknown>;
  /** The agent's id of the call (Claude `tool_use_id`); null when it gives none. */
  toolUseId: string | null;
  /** The sub-agent making the call (Claude `agent_id`); null for the main agent. */
  agentId: string | null;
  /**
   * The MCP server of an MCP tool, when the agent names it (Claude's `mcp_server.name`; Gemini's
   * `mcp_context.server_name`, with the server's own name of the tool, `mcp_context.tool_name`).
   */
  mcp?: { server: string; tool?: string };
  /**
   * Set when the call as sent could not be recorded (a NUL, a lone UTF-16 surrogate): these fields are its storable
   * form (recordable-call.ts), and its pre is refused `invalid_arguments`.
   */
  unrecordable?: true;
}

/** What a hook reports: a call about to run, one that ran (with its response), or anything else. */
export type HookEvent =
  | { kind: 'pre'; call: HookToolCall }
  | { kind: 'post'; call: HookToolCall; response: unknown; durationMs: number | null }
  | { kind: 'other'; cliSessionId: string | null };

/** shipgate's answer to a pre-tool hook; never `ask`: a held call is decided before it is answered. */
export interface HookVerdict {
  decision: 'allow' | 'deny';
  reason: string;
}

/** An allowed call whose post has not come yet (it completes when its entry is recorded). */
export interface NewHookCall {
  execution_id: string;
  /** The entry's call_id once completed: the agent's tool_use_id, else one made for it. */
  call_id: string;
  tool: string;
  agent_id: string | null;
  arguments: Record<string, unknown>;
  capability: string;
  approved_by: { id: string; name: string | null } | null;
  requested_at: Date;
}

export interface HookCall extends Omit<NewHookCall, 'requested_at'> {
  id: string;
  requested_at: string;
}

/**
 * A pre's call opened with its credential's statement, before its decision (core/hooks/open-ahead.ts):
 * written only while the session is open, within its call limit and the request within `perMinute`.
 */
export interface OpenAhead {
  call: NewHookCall;
  perMinute: number;
}

/** Storage port of hook calls and of the agent sessions a key's agent runs opened. Implemented in db/. */
export interface HookCallStore {
  /** Opens the call, taking one of its session's calls: its id, or null when the session has none left (`max_tool_calls`). */
  open(call: NewHookCall): Promise<string | null>;
  /** Removes a call opened ahead that its decision did not allow. */
  discard(id: string): Promise<void>;
  /**
   * The allowed call a post completes: the one with that call id when given, else the session's
   * latest one of that tool (and sub-agent) not yet completed; null when none.
   */
  findOpen(executionId: string, tool: string, callId: string | null, agentId: string | null): Promise<HookCall | null>;
  /** The session's allowed calls whose post never came, oldest first. */
  incomplete(executionId: string): Promise<HookCall[]>;
  /**
   * The agent session whose token has this hash, with its call state, counting the request on a
   * rate bucket (window in seconds) in the same round trip, and opening `ahead`'s call when its
   * session's state and the count allow it; null (nothing counted or opened) when none.
   */
  sessionByTokenCounted(
    tokenHash: string,
    bucket: string,
    windowSeconds: number,
    ahead?: OpenAhead | null,
  ): Promise<{ session: AgentSessionCallState; hit: { count: number; retry: number }; openedAhead: string | null } | null>;
  /** The agent session a key's agent run (its own session id) opened, with its call state, if one did. */
  stateOfRun(agentKeyId: string, agent: HookAgent, cliSessionId: string): Promise<AgentSessionCallState | null>;
  /**
   * The session's repository root: the one set before, else `cwd`, set now (docs/agent-hooks.md,
   * "Paths"); the first of concurrent callers on any replica wins.
   */
  establishRoot(executionId: string, cwd: string): Promise<string>;
  /** Binds the run to the session unless another request bound it first: the session that stands. */
  bindRun(agentKeyId: string, agent: HookAgent, cliSessionId: string, executionId: string): Promise<string>;
}
