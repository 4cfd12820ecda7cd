import { gatewayTools, TOOL_NAME_SEPARATOR, type GatewayTool } from './gateway-tools.js';
import type { McpServerRegistry, McpUpstream } from './mcp-server-registry.js';
import type {
  McpUpstreamClient,
  UpstreamConnection,
  UpstreamResult,
  UpstreamSessionCredentials,
  UpstreamTool,
} from './mcp-upstream-client.js';
import type { McpToolPins, ToolPinState } from './mcp-tool-pins.js';
import { MAX_NEW_TOOL_PINS } from './reconcile-tool-pins.js';
import { toolDefinition } from './tool-definition.js';
import type { UpstreamCredentials } from './upstream-credentials.js';

/** Listing an upstream's tools is bounded too: an upstream that hangs must not hang `tools/list`. */
export const LIST_TIMEOUT_MS = 30_000;

export interface SessionUpstreamsDeps {
  client: McpUpstreamClient;
  registry: Pick<McpServerRegistry, 'upstreams'>;
  log(event: string, fields: Record<string, unknown>): void;
  /** The pinned tool definitions (docs/mcp-gateway.md, "Pinned tool definitions"); without them every listed tool counts as pinned. */
  pins?: Pick<McpToolPins, 'reconcile'>;
  /** The session's minted tokens, for upstreams registered with `auth.github_app`. */
  credentials?: UpstreamCredentials;
}

/** A tool found for a call, with the upstream registration read for that call (which forwarding uses). */
export type ResolvedTool = GatewayTool & {
  upstream: McpUpstream;
  /** Only a `pinned` tool may be called; any other awaits (or was refused) an ADMIN's approval. */
  pin: ToolPinState;
  /** The SHA-256 of the tool's definition as pinned (its certificate's `tool_definition`), else as listed now. */
  definitionDigest: string;
};

/** Each listed tool's pin state and digest, for one tool list. */
type Pins = Map<string, { pin: ToolPinState; digest: string }>;

/** One upstream as an MCP session uses it: its registration, connection and tool list. */
interface UpstreamState {
  /** What the connection was opened with (url and headers): a registration changed since means a new connection. */
  identity: string;
  connection: Promise<UpstreamConnection> | null;
  /** Null until listed, and again once the upstream says its tools changed. */
  tools: UpstreamTool[] | null;
  listing: Promise<UpstreamTool[]> | null;
  /** The pins of `tools` as last reconciled (for that very list). */
  pins: { of: UpstreamTool[]; pins: Pins } | null;
}

const identityOf = (upstream: McpUpstream) => JSON.stringify([upstream.url, upstream.headers, upstream.auth]);

/** Rejects after `ms` (the SDK's own timeouts cover requests; this covers a connection being opened by another caller). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The upstreams of ONE MCP session (docs/mcp-gateway.md, "The MCP endpoint"): a client
 * session per upstream, opened at first use and kept until the MCP session ends (close()),
 * and each upstream's tool list, listed at first use and listed again when the upstream sends
 * `notifications/tools/list_changed` or a call names a tool the list does not hold. The
 * registrations are read again whenever they may have changed (on every use, or for a call when
 * the version read with its state changed), so a server deleted or re-registered is seen at the
 * next request (a changed URL or headers opens a new connection). A connection that fails a request
 * is closed and opened again at the next use.
 */
export class SessionUpstreams {
  private readonly states = new Map<string, UpstreamState>();
  /** The session's registrations as last read, with the version they were read at. */
  private known: { version: string; upstreams: McpUpstream[] } | null = null;
  private closed = false;

  constructor(
    private readonly deps: SessionUpstreamsDeps,
    /** The servers the agent session may reach, by name. */
    private readonly servers: readonly string[],
  ) {}

  /** Every tool of the session's upstreams, namespaced; an upstream that fails to list is left out (and logged). */
  async tools(): Promise<GatewayTool[]> {
    const upstreams = await this.registrations(this.servers);
    const listed = await Promise.all(
      upstreams.map(async (upstream) => {
        const tools = await this.listed(upstream, false);
        // Every tools/list reads the pins again, so an ADMIN's approval is listed at once.
        const pins = await this.pinsOf(upstream, tools, true);
        return { upstream, tools: tools.filter((t) => pins.get(t.name)?.pin === 'pinned') };
      }),
    );
    return gatewayTools(listed);
  }

  /**
   * The tool a call names (`<server>__<tool>`), or null when its upstream is not the session's,
   * not registered, or does not list it (even when listed again).
   */
  async tool(name: string, serversVersion?: string): Promise<ResolvedTool | null> {
    const at = name.indexOf(TOOL_NAME_SEPARATOR);
    const server = at > 0 ? name.slice(0, at) : null;
    if (!server || !this.servers.includes(server)) return null;
    const upstream = (await this.registrations(this.servers, serversVersion)).find((u) => u.name === server);
    if (!upstream) return null;
    const find = async (tools: UpstreamTool[], fresh: boolean): Promise<ResolvedTool | null> => {
      const found = tools.find((t) => t.name === name.slice(at + TOOL_NAME_SEPARATOR.length));
      if (!found) return null;
      const pin = (await this.pinsOf(upstream, tools, fresh)).get(found.name)!;
      return { ...gatewayTools([{ upstream, tools: [found] }])[0], upstream, pin: pin.pin, definitionDigest: pin.digest };
    };
    // A tool not listed, or not pinned, is listed again (it may have been approved, or fixed, since).
    const known = await find(await this.listed(upstream, false), false);
    return known?.pin === 'pinned' ? known : ((await find(await this.listed(upstream, true), true)) ?? known);
  }

  /**
   * Forwards a call to the tool's upstream (as registered when the tool was found); connecting (when needed) and the call share `timeoutMs`.
   * A token minted for the session never comes back in its result or error: the upstream client takes it out (credentialsOf).
   */
  async call(tool: ResolvedTool, args: Record<string, unknown>, timeoutMs: number): Promise<UpstreamResult> {
    if (this.closed) throw new Error('This MCP session has ended.');
    const deadline = Date.now() + timeoutMs;
    return this.using(tool.upstream, deadline, (connection) =>
      connection.callTool(tool.upstreamName, args, Math.max(1, deadline - Date.now())),
    );
  }

  /**
   * Why a call to the tool named `name` (`<server>__<tool>`) cannot get its upstream's credentials
   * (docs/mcp-gateway.md, "Least-privilege upstream credentials"), else null: for an upstream
   * registered with `auth.github_app`, a token limited to the session's repository is minted (or
   * the one held is used); an upstream without it, or not the session's, needs none. `upstream`:
   * the registration the call was resolved with, if it was.
   */
  async refusal(name: string, upstream?: McpUpstream): Promise<string | null> {
    const credentials = this.deps.credentials;
    if (!credentials) return null;
    const server = name.slice(0, Math.max(0, name.indexOf(TOOL_NAME_SEPARATOR)));
    const registered =
      upstream ??
      (this.servers.includes(server)
        ? (this.known?.upstreams ?? (await this.registrations(this.servers))).find((u) => u.name === server)
        : undefined);
    const minted = registered ? await credentials.tokenFor(registered) : null;
    return minted && 'refused' in minted ? `upstream '${registered!.name}' has no credentials: ${minted.refused}` : null;
  }

  /** Ends every upstream session; later uses open none. */
  async close(): Promise<void> {
    this.closed = true;
    const states = [...this.states.values()];
    this.states.clear();
    await Promise.all(states.map((state) => this.drop(state)));
  }

  /**
   * The named registrations, read from the registry unless `version` (AgentSessionCallState's
   * servers_version, read with the call's state) says they are still those last read.
   */
  private async registrations(names: readonly string[], version?: string): Promise<McpUpstream[]> {
    if (this.closed) throw new Error('This MCP session has ended.');
    if (version !== undefined && this.known?.version === version) return this.known.upstreams;
    const upstreams = await this.deps.registry.upstreams(names);
    this.known = version !== undefined && names === this.servers ? { version, upstreams } : null;
    for (const name of names) {
      const state = this.states.get(name);
      if (state && !upstreams.some((u) => u.name === name)) {
        // Deleted since: its connection ends now.
        this.states.delete(name);
        void this.drop(state);
      }
    }
    return upstreams;
  }

  private stateOf(upstream: McpUpstream): UpstreamState {
    const identity = identityOf(upstream);
    let state = this.states.get(upstream.name);
    if (state && state.identity !== identity) {
      void this.drop(state);
      state = undefined;
    }
    if (!state) {
      state = { identity, connection: null, tools: null, listing: null, pins: null };
      this.states.set(upstream.name, state);
    }
    return state;
  }

  private async drop(state: UpstreamState): Promise<void> {
    const connection = state.connection;
    state.connection = null;
    if (connection) await connection.then((c) => c.close()).catch(() => undefined);
  }

  /** Runs `use` on the upstream's connection (opened if needed); a connection that fails it is dropped. */
  private async using<T>(upstream: McpUpstream, deadline: number, use: (connection: UpstreamConnection) => Promise<T>): Promise<T> {
    const state = this.stateOf(upstream);
    const remaining = () => Math.max(1, deadline - Date.now());
    if (!state.connection) {
      const opening = this.deps.client.connect(
        upstream,
        remaining(),
        {
          onToolsChanged: () => {
            state.tools = null;
          },
        },
        this.credentialsOf(upstream),
      );
      state.connection = opening;
      opening.catch(() => {
        if (state.connection === opening) state.connection = null;
      });
    }
    const connection = state.connection;
    try {
      const ready = await within(connection, remaining(), `connecting to '${upstream.name}'`);
      if (this.closed) throw new Error('This MCP session has ended.');
      return await use(ready);
    } catch (error) {
      if (state.connection === connection) await this.drop(state);
      throw error;
    }
  }

  /**
   * The session's minted tokens as the upstream's client sees them: every one of them, which the client takes out of
   * everything any upstream answers (its listings and tool definitions, results, errors: docs/mcp-gateway.md,
   * "Least-privilege upstream credentials"), and for an upstream registered with `auth.github_app` the one it sends
   * with each request.
   */
  private credentialsOf(upstream: McpUpstream): UpstreamSessionCredentials | undefined {
    const credentials = this.deps.credentials;
    if (!credentials) return undefined;
    const minted = () => credentials.minted();
    if (!upstream.auth?.github_app) return { minted };
    return {
      minted,
      bearer: async () => {
        const token = await credentials.tokenFor(upstream);
        if (!token || 'refused' in token) throw new Error(`no credentials for upstream '${upstream.name}': ${token?.refused ?? 'none'}`);
        return token.token.token;
      },
    };
  }

  /**
   * The pins of a tool list of the upstream: reconciled with the store (which records what the
   * upstream lists now) when `fresh` or when this list was not reconciled yet, else as then.
   */
  private async pinsOf(upstream: McpUpstream, tools: UpstreamTool[], fresh: boolean): Promise<Pins> {
    const state = this.stateOf(upstream);
    if (!fresh && state.pins?.of === tools) return state.pins.pins;
    const listed = tools.map(toolDefinition);
    let pins: Pins;
    if (!this.deps.pins) pins = new Map(listed.map((l) => [l.definition.name, { pin: 'pinned', digest: l.digest }]));
    else {
      const { pins: stored, unrecorded } = await this.deps.pins.reconcile(upstream.name, listed);
      if (unrecorded.length > 0)
        this.deps.log('mcp.new_tools_unrecorded', { server: upstream.name, unrecorded: unrecorded.length, limit: MAX_NEW_TOOL_PINS });
      pins = new Map(
        listed.map((l) => {
          const pin = stored.get(l.definition.name);
          // A new tool left unrecorded (MAX_NEW_TOOL_PINS await approval), or any of a server deleted meanwhile, has no
          // pin: it is quarantined as new.
          return [l.definition.name, { pin: pin?.state ?? 'new', digest: l.digest }];
        }),
      );
    }
    state.pins = { of: tools, pins };
    return pins;
  }

  /** The upstream's tools: as last listed, unless `again` or never listed; [] (logged, not kept) when listing fails. */
  private async listed(upstream: McpUpstream, again: boolean): Promise<UpstreamTool[]> {
    const state = this.stateOf(upstream);
    if (state.tools && !again) return state.tools;
    if (!state.listing) {
      const deadline = Date.now() + LIST_TIMEOUT_MS;
      state.listing = this.using(upstream, deadline, (c) => c.listTools(Math.max(1, deadline - Date.now())))
        .then((tools) => (state.tools = tools))
        .finally(() => (state.listing = null));
    }
    try {
      return await state.listing;
    } catch (error) {
      this.deps.log('mcp.upstream_list_failed', { server: upstream.name, error: (error as Error).message });
      return [];
    }
  }
}
