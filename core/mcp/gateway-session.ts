import type { Certifier } from '../agent/certifier.js';
import type { ExecutionJournal } from '../agent/journal.js';
import { canonicalDigest } from '../canonical-json.js';
import type { AgentCallApprovals } from './agent-call-approvals.js';
import type { AgentSession, AgentSessionStore } from './agent-session.js';
import { awaitCallApproval } from './await-call-approval.js';
import type { GatewayCallJournal } from './gateway-call-journal.js';
import { callThroughGateway, type GatewayAnswer, type GatewayTerms } from './call-through-gateway.js';
import { allowedTools, type GatewayTool } from './gateway-tools.js';
import type { McpServerRegistry } from './mcp-server-registry.js';
import type { McpUpstreamClient } from './mcp-upstream-client.js';
import type { McpToolPins } from './mcp-tool-pins.js';
import { repostCoveredChecks } from './repost-covered-checks.js';
import type { ReadState, SessionCallQueue } from './session-call-queue.js';
import { SessionUpstreams } from './session-upstreams.js';
import { UpstreamCredentials } from './upstream-credentials.js';
import type { InstallationTokenMinter } from '../github/installation-token-minter.js';

export interface GatewaySessionDeps {
  journal: Pick<ExecutionJournal, 'load'>;
  /** Records each call at the session's next free seq (core/mcp/gateway-call-journal.ts). */
  gatewayCalls: GatewayCallJournal;
  certifier: Certifier;
  agentSessions: Pick<AgentSessionStore, 'callState' | 'coverageChanged'>;
  mcpServers: Pick<McpServerRegistry, 'upstreams'>;
  mcpUpstreamClient: McpUpstreamClient;
  /** The pinned tool definitions: a tool is listed and callable only as pinned (docs/mcp-gateway.md, "Pinned tool definitions"). */
  mcpToolPins: Pick<McpToolPins, 'reconcile'>;
  /** Mints the tokens of upstreams registered with `auth.github_app`, limited to the session's repository. */
  installationTokens: InstallationTokenMinter;
  /** Calls held under the policy's `ask` until a person decides them (docs/mcp-gateway.md, "Asking a person"). */
  agentCallApprovals: Pick<AgentCallApprovals, 'ask' | 'state' | 'settle'>;
  now(): Date;
  /** What the gateway did (a call and its verdict). */
  log(event: string, fields: Record<string, unknown>): void;
  /** What went wrong with an upstream (it failed to connect or to list its tools). */
  warn(event: string, fields: Record<string, unknown>): void;
}

/** What the agent gets for a `tools/call`: an MCP tool result. */
export type GatewayCallResult = Omit<GatewayAnswer, 'recorded' | 'denied'>;

/** ONE MCP session of an agent session, as the gateway serves it. */
export interface GatewaySession {
  /** What `tools/list` shows: exactly the tools the session may call. */
  tools(): Promise<GatewayTool[]>;
  /**
   * One `tools/call`, in its turn among the agent session's calls in this process; `read` is the
   * state read while its request was authenticated, used unless another call of the session ended since.
   */
  call(
    call: { name: string; arguments: Record<string, unknown> },
    read: ReadState | undefined,
    /** Where the call's `mcp.tool_call` line goes when its request's own log line carries it (one line per call); else it is logged. */
    annotate?: (fields: Record<string, unknown>) => void,
  ): Promise<GatewayCallResult>;
  /** Ends the MCP session's upstream client sessions. */
  close(): Promise<void>;
}

const ended = (text: string): GatewayCallResult => ({ content: [{ type: 'text', text }], isError: true });

/**
 * ONE MCP session of an agent session (docs/mcp-gateway.md, "The MCP endpoint"): its upstream
 * connections and tool lists (session-upstreams.ts), and the session's terms (policy and resolved
 * permissions, fixed when it opened), read once. Each `tools/call` is checked against the
 * session's state (status, expiry, next seq, last certificate, registrations' version) read in
 * one statement while its request was authenticated, or read again in its turn when another call
 * of the session ended since (session-call-queue.ts).
 */
export function openGatewaySession(
  deps: GatewaySessionDeps,
  session: Pick<AgentSession, 'id' | 'servers' | 'max_tool_calls' | 'repo_root'>,
  calls: SessionCallQueue,
): GatewaySession {
  const upstreams = new SessionUpstreams(
    {
      client: deps.mcpUpstreamClient,
      registry: deps.mcpServers,
      log: (event, fields) => deps.warn(event, { execution_id: session.id, ...fields }),
      pins: deps.mcpToolPins,
      credentials: new UpstreamCredentials(deps.installationTokens, session.repo_root, () => deps.now().getTime()),
    },
    session.servers,
  );
  let terms: Promise<GatewayTerms> | null = null;
  const termsOf = (): Promise<GatewayTerms> => {
    terms ??= deps.journal.load(session.id).then(({ policy, execution }) => ({
      policy,
      policyRef: execution.policy,
      permissions: execution.permissions,
    }));
    terms.catch(() => (terms = null));
    return terms;
  };
  // The session's first call denied under a blocking policy shrinks what it covers: the check
  // runs it may have made green are re-posted, once per MCP session (the job coalesces repeats).
  let coverageShrank = false;

  return {
    async tools() {
      const [{ policy, permissions }, tools] = await Promise.all([termsOf(), upstreams.tools()]);
      return allowedTools(tools, policy, permissions);
    },
    call: (call, read, annotate) =>
      calls.serialise(session.id, async () => {
        const state =
          read && read.state.id === session.id && calls.current(session.id, read.readAt)
            ? read.state
            : await deps.agentSessions.callState(session.id);
        if (!state) return ended('This agent session no longer exists.');
        const [sessionTerms, tool] = await Promise.all([termsOf(), upstreams.tool(call.name, state.servers_version)]);
        const answer = await callThroughGateway(
          {
            journal: deps.gatewayCalls,
            readState: (id) => deps.agentSessions.callState(id),
            certifier: deps.certifier,
            checkArguments: (schema, value) => deps.mcpUpstreamClient.checkArguments(schema, value),
            now: deps.now,
            log: (event, fields) => (event === 'mcp.tool_call' && annotate ? annotate({ event, ...fields }) : deps.log(event, fields)),
            hold: async (held) => {
              const requestedAt = deps.now();
              const id = await deps.agentCallApprovals.ask({
                execution_id: session.id,
                seq: held.seq,
                tool: held.tool,
                arguments: held.arguments,
                arguments_digest: canonicalDigest(held.arguments),
                capability: held.capability,
                requested_at: requestedAt,
                deadline: new Date(requestedAt.getTime() + held.timeoutSeconds * 1000),
              });
              deps.log('mcp.tool_call_held', { execution_id: session.id, seq: held.seq, tool: held.tool, approval_id: id });
              return awaitCallApproval(
                {
                  approvals: deps.agentCallApprovals,
                  now: deps.now,
                  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
                },
                id,
              );
            },
          },
          session,
          sessionTerms,
          state,
          tool,
          upstreams,
          call,
        );
        if (answer.denied && !coverageShrank) {
          coverageShrank = await repostCoveredChecks(deps, session.id, { denied: sessionTerms.policy.denied_call_severity });
        }
        const { recorded: _recorded, denied: _denied, ...result } = answer;
        return result;
      }),
    close: () => upstreams.close(),
  };
}
