import type { Certifier } from '../agent/certifier.js';
import type { AgentCallApproval, AgentCallApprovals } from '../mcp/agent-call-approvals.js';
import type { AgentSessionStore } from '../mcp/agent-session.js';
import type { GatewayTerms } from '../mcp/call-through-gateway.js';
import type { GatewayCallJournal } from '../mcp/gateway-call-journal.js';
import type { SessionCallQueue } from '../mcp/session-call-queue.js';
import type { OpenCallMemory } from './open-call-memory.js';

/** What deciding and recording a hook call needs (core/hooks/pre-tool-use.ts, post-tool-use.ts). */
export interface HookDeps {
  /** Records an entry at its seq only while that seq is free, on any replica. */
  gatewayCalls: GatewayCallJournal;
  certifier: Certifier;
  agentSessions: Pick<AgentSessionStore, 'callState' | 'coverageChanged'>;
  hookCalls: OpenCallMemory;
  agentCallApprovals: Pick<AgentCallApprovals, 'askWithin' | 'state' | 'settle'>;
  /** The calls of each session one at a time in this process: each entry's seq and certificate follow the last. */
  calls: SessionCallQueue;
  /**
   * The session's repository root (docs/agent-hooks.md, "Paths"): the `cwd` of its first tool call,
   * whichever replica served it, else `cwd` now set as it; remembered per process once read.
   */
  rootOf(sessionId: string, cwd: string): Promise<string>;
  /** Whether this is the first call of the session refused in this process (its checks are re-posted once). */
  firstDenial(sessionId: string): boolean;
  now(): Date;
  sleep(ms: number): Promise<void>;
  log(event: string, fields: Record<string, unknown>): void;
}

/** The session's policy, its reference and resolved permissions: fixed when the session opened. */
export type HookTerms = GatewayTerms;

export type { AgentCallApproval };
