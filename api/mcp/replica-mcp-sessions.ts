import type { InitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AgentSessionCallState } from '../../core/mcp/agent-session.js';
import { openGatewaySession } from '../../core/mcp/gateway-session.js';
import type { McpSessionRecord } from '../../core/mcp/mcp-sessions.js';
import type { SessionCallQueue } from '../../core/mcp/session-call-queue.js';
import type { Deps } from '../deps.js';
import { JsonResponseTransport } from './json-response-transport.js';
import { createMcpSessionServer } from './mcp-session-server.js';

export type ReplicaMcpSessionsDeps = Pick<
  Deps,
  | 'config'
  | 'logger'
  | 'journal'
  | 'gatewayCalls'
  | 'certifier'
  | 'agentSessions'
  | 'mcpSessions'
  | 'mcpServers'
  | 'mcpUpstreamClient'
  | 'installationTokens'
  | 'mcpToolPins'
  | 'agentCallApprovals'
>;

/** An MCP session as this replica serves it: the SDK's server over its transport, and the gateway session with its upstream connections. */
export interface ServedMcpSession {
  id: string;
  transport: JsonResponseTransport;
  /** Requests of it being answered here now: an idle one may be let go, a busy one not. */
  busy: number;
  usedAt: number;
}

/** A served MCP session unused this long is let go here (its upstream connections closed); its next request builds it again. */
export const SERVED_IDLE_MS = 10 * 60_000;

/**
 * The MCP sessions this replica is serving (docs/mcp-gateway.md, "Any replica serves any
 * session"). What an MCP session is lives in PostgreSQL (core/mcp/mcp-sessions.ts); a replica
 * builds what serving it needs at its first request here (the SDK's server over a
 * JsonResponseTransport, the gateway session with its policy and upstream connections, opened
 * lazily) and keeps it while it is used. A session initialized on another replica is rebuilt
 * from its stored `initialize` (protocol version, client info and capabilities), replayed to the
 * SDK's server. Letting one go here ends nothing but this replica's copy.
 */
export function createReplicaMcpSessions(deps: ReplicaMcpSessionsDeps, calls: SessionCallQueue) {
  const served = new Map<string, Promise<ServedMcpSession>>();
  let shuttingDown = false;
  const now = () => new Date();
  const log = (event: string, fields: Record<string, unknown>) => deps.logger.info({ event, ...fields }, event);
  const warn = (event: string, fields: Record<string, unknown>) => deps.logger.warn({ event, ...fields }, event);

  async function build(record: McpSessionRecord, session: AgentSessionCallState, replay: boolean): Promise<ServedMcpSession> {
    const gateway = openGatewaySession({ ...deps, now, log, warn }, session, calls);
    const transport = new JsonResponseTransport(record.id);
    transport.onclose = () => void gateway.close();
    await createMcpSessionServer(gateway).connect(transport);
    if (replay) {
      const initialize: InitializeRequest & { jsonrpc: '2.0'; id: string } = {
        jsonrpc: '2.0',
        id: 'shipgate-replayed-initialize',
        method: 'initialize',
        params: {
          protocolVersion: record.protocol_version,
          capabilities: record.client_capabilities,
          clientInfo: record.client_info as { name: string; version: string },
        },
      };
      await transport.exchange([initialize, { jsonrpc: '2.0', method: 'notifications/initialized' }]);
    }
    return { id: record.id, transport, busy: 0, usedAt: Date.now() };
  }

  async function drop(id: string): Promise<void> {
    const entry = served.get(id);
    served.delete(id);
    if (entry) await (await entry).transport.close();
  }

  return {
    /** Whether the server is shutting down: no MCP session is served any more. */
    closing: (): boolean => shuttingDown,

    /**
     * The MCP session as served here, built at its first request on this replica (`fresh`: its
     * `initialize` is the request being answered, so nothing is replayed); `use` runs with it
     * counted busy, so it is not let go meanwhile.
     */
    async use<T>(
      record: McpSessionRecord,
      session: AgentSessionCallState,
      fresh: boolean,
      use: (entry: ServedMcpSession) => Promise<T>,
    ): Promise<T> {
      let found = served.get(record.id);
      if (!found) {
        found = build(record, session, !fresh);
        served.set(record.id, found);
        found.catch(() => served.get(record.id) === found && served.delete(record.id));
      }
      const entry = await found;
      entry.busy += 1;
      try {
        return await use(entry);
      } finally {
        entry.busy -= 1;
        entry.usedAt = Date.now();
      }
    },

    /** Lets the MCP session go here (closing its upstream connections), if this replica serves it. */
    drop,

    /**
     * Lets go the MCP sessions whose MCP or agent session ended (on whichever replica), and
     * those idle here for SERVED_IDLE_MS; the server runs it every ENDED_SWEEP_MS.
     */
    async sweep(): Promise<void> {
      const ids = [...served.keys()];
      if (ids.length === 0) return;
      const ended = new Set(await deps.mcpSessions.ended(ids, now()));
      const idleSince = Date.now() - SERVED_IDLE_MS;
      const entries = await Promise.all(ids.map(async (id) => ({ id, entry: await served.get(id)?.catch(() => undefined) })));
      const idle = entries.filter(({ entry }) => entry && entry.busy === 0 && entry.usedAt < idleSince).map(({ id }) => id);
      await Promise.all([...new Set([...ended, ...idle])].map(drop));
    },

    /** The server's shutdown: lets go every MCP session served here (they stay open for the other replicas). */
    async close(): Promise<void> {
      shuttingDown = true;
      await Promise.all([...served.keys()].map(drop));
    },
  };
}

export type ReplicaMcpSessions = ReturnType<typeof createReplicaMcpSessions>;
