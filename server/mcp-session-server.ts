import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Deps } from '../api/deps.js';
import type { AgentSession } from '../core/mcp/agent-session.js';
import { callThroughGateway, type GatewayTerms } from '../core/mcp/call-through-gateway.js';
import { allowedTools } from '../core/mcp/gateway-tools.js';
import { SessionUpstreams } from '../core/mcp/session-upstreams.js';
import { coverageShrinksOn } from '../core/release/session-coverage.js';
import type { CallQueue, ReadState } from './mcp-call-queue.js';

export type McpSessionDeps = Pick<Deps, 'logger' | 'journal' | 'certifier' | 'agentSessions' | 'mcpServers' | 'mcpUpstreamClient'>;

export interface McpSessionServer {
  server: Server;
  /** Ends the MCP session's upstream client sessions. */
  close(): Promise<void>;
}

const ended = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: true });

/**
 * The SDK server of ONE MCP session of an agent session (docs/mcp-gateway.md, "The MCP
 * endpoint"): its upstream connections and tool lists (core/mcp/session-upstreams.ts), and the
 * session's terms (policy and resolved permissions, fixed when it opened), read once. Each
 * `tools/call` is checked against the session's state (status, expiry, next seq, last
 * certificate, registrations' version) read in one statement while its request was
 * authenticated, or read again in its turn when another call of the session ended since.
 */
export function createMcpSessionServer(
  deps: McpSessionDeps,
  session: Pick<AgentSession, 'id' | 'servers' | 'max_tool_calls'>,
  calls: CallQueue,
): McpSessionServer {
  const log = (event: string, fields: Record<string, unknown>) => deps.logger.info({ event, ...fields }, event);
  const upstreams = new SessionUpstreams(
    {
      client: deps.mcpUpstreamClient,
      registry: deps.mcpServers,
      log: (event, fields) => deps.logger.warn({ event, execution_id: session.id, ...fields }, event),
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
  // The session's first call denied under a blocking policy shrinks what it covers: the check runs
  // it may have made green are re-posted, once per MCP session (the job coalesces repeats).
  let coverageShrank = false;

  const server = new Server({ name: 'shipgate', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const [{ policy, permissions }, tools] = await Promise.all([termsOf(), upstreams.tools()]);
    return {
      tools: allowedTools(tools, policy, permissions).map((t) => ({
        name: t.name,
        ...(t.tool.title ? { title: t.tool.title } : {}),
        description: t.tool.description ?? '',
        inputSchema: t.tool.inputSchema as { type: 'object' },
        ...(t.tool.annotations ? { annotations: t.tool.annotations } : {}),
      })),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
    calls.serialise(session.id, async () => {
      // The state read while authenticating this request, unless another call of the session ended since.
      const read = extra.authInfo?.extra as ReadState | undefined;
      const state =
        read && read.state.id === session.id && calls.current(session.id, read.readAt)
          ? read.state
          : await deps.agentSessions.callState(session.id);
      if (!state) return ended('This agent session no longer exists.');
      const [sessionTerms, tool] = await Promise.all([termsOf(), upstreams.tool(request.params.name, state.servers_version)]);
      const answer = await callThroughGateway(
        {
          journal: deps.journal,
          certifier: deps.certifier,
          checkArguments: (schema, value) => deps.mcpUpstreamClient.checkArguments(schema, value),
          now: () => new Date(),
          log,
        },
        session,
        sessionTerms,
        state,
        tool,
        upstreams,
        { name: request.params.name, arguments: request.params.arguments ?? {} },
      );
      if (answer.denied && !coverageShrank && coverageShrinksOn({ denied: sessionTerms.policy.denied_call_severity })) {
        coverageShrank = true;
        await deps.agentSessions.coverageChanged(session.id);
      }
      const { recorded: _recorded, denied: _denied, ...result } = answer;
      return result as { content: { type: 'text'; text: string }[]; isError: boolean };
    }),
  );
  return { server, close: () => upstreams.close() };
}
