import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AgentSessionCallState } from '../../core/mcp/agent-session.js';
import { closeAgentSession } from '../../core/mcp/close-agent-session.js';
import { openGatewaySession } from '../../core/mcp/gateway-session.js';
import { createHeldMcpSessions } from '../../core/mcp/held-mcp-sessions.js';
import type { SessionCallQueue } from '../../core/mcp/session-call-queue.js';
import type { Deps } from '../deps.js';
import { createMcpSessionServer } from './mcp-session-server.js';

export type McpSessionTransportsDeps = Pick<
  Deps,
  | 'config'
  | 'logger'
  | 'journal'
  | 'certifier'
  | 'agentSessions'
  | 'mcpServers'
  | 'mcpUpstreamClient'
  | 'installationTokens'
  | 'mcpToolPins'
  | 'agentCallApprovals'
>;

/** One MCP session of an agent session: the SDK transport (with its server and upstream connections). */
export interface OpenMcpSession {
  agentSessionId: string;
  /** The agent key that opened it; null for a session token's. */
  agentKeyId: string | null;
  transport: StreamableHTTPServerTransport;
}

/** An MCP session made for a request, and the end of its key's agent session once it closed (if it did). */
export interface CreatedMcpSession {
  session: OpenMcpSession;
  ended(): Promise<void> | undefined;
}

/**
 * The MCP sessions this process holds (docs/mcp-gateway.md, "The MCP endpoint"): per
 * `Mcp-Session-Id`, the SDK's Streamable HTTP transport and server (mcp-session-server.ts) over
 * a gateway session (core/mcp/gateway-session.ts) with its upstream connections, bound to its
 * agent session (and key), each counted against its agent session's cap
 * (core/mcp/held-mcp-sessions.ts) from its creation until it closes. Closing one frees its slot
 * and its upstream connections; a key's agent session ends with its one MCP session.
 */
export function createMcpSessionTransports(deps: McpSessionTransportsDeps, calls: SessionCallQueue) {
  const open = new Map<string, OpenMcpSession>();
  const held = createHeldMcpSessions(deps.config.mcp.maxSessions);
  let shuttingDown = false;
  const now = () => new Date();
  const log = (event: string, fields: Record<string, unknown>) => deps.logger.info({ event, ...fields }, event);
  const warn = (event: string, fields: Record<string, unknown>) => deps.logger.warn({ event, ...fields }, event);

  return {
    /** The MCP session with this `Mcp-Session-Id`, if this process holds it. */
    get: (mcpSessionId: string): OpenMcpSession | undefined => open.get(mcpSessionId),

    /** Whether the server is shutting down: no MCP session is created any more. */
    closing: (): boolean => shuttingDown,

    /** A new MCP session of `session`, connected to its SDK server; RateLimitedError (429) when the agent session holds its cap. */
    async create(session: AgentSessionCallState, agentKeyId: string | null): Promise<CreatedMcpSession> {
      const agentSessionId = session.id;
      held.take(session, now());
      const gateway = openGatewaySession({ ...deps, now, log, warn }, session, calls);
      // A key's session is one MCP session: when it ends, the governed session ends (not when the server stops), once.
      let ending: Promise<void> | undefined;
      const endKeySession = () =>
        (ending ??= closeAgentSession(deps, agentSessionId).catch((error: Error) =>
          deps.logger.error({ event: 'mcp.session_close_failed', execution_id: agentSessionId, error: error.message }, 'closing failed'),
        ));
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        // A request's answer as one JSON body rather than an event stream: nothing is streamed back to the agent.
        enableJsonResponse: true,
        onsessioninitialized: (id) => void open.set(id, { agentSessionId, agentKeyId, transport }),
        // Awaited before a DELETE is answered, so the key's slot is free for the agent's next `initialize`.
        onsessionclosed: agentKeyId ? endKeySession : undefined,
      });
      transport.onclose = () => {
        held.release(agentSessionId);
        if (transport.sessionId) open.delete(transport.sessionId);
        if (![...open.values()].some((e) => e.agentSessionId === agentSessionId)) calls.forget(agentSessionId);
        void gateway.close();
        // The same ending as the DELETE's onsessionclosed, when one ran first.
        if (agentKeyId && !shuttingDown) void endKeySession();
      };
      await createMcpSessionServer(gateway).connect(transport);
      return { session: { agentSessionId, agentKeyId, transport }, ended: () => ending };
    },

    /** Closes the MCP sessions whose agent session has ended (expired, closed, cancelled). */
    async sweep(): Promise<void> {
      const entries = [...open.values()];
      if (entries.length === 0) return;
      const gone = new Set(await deps.agentSessions.ended([...new Set(entries.map((e) => e.agentSessionId))], now()));
      await Promise.all(entries.filter((e) => gone.has(e.agentSessionId)).map((e) => e.transport.close()));
    },

    /** The server's shutdown: ends every MCP session here (not the agent sessions). */
    async close(): Promise<void> {
      shuttingDown = true;
      await Promise.all([...open.values()].map((e) => e.transport.close()));
    },
  };
}

export type McpSessionTransports = ReturnType<typeof createMcpSessionTransports>;
