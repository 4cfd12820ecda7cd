import type { ToolDefinition } from './tool-definition.js';

/**
 * Where an upstream tool stands (docs/mcp-gateway.md, "Pinned tool definitions"): `pinned`, its
 * definition is the one an ADMIN approved (or the first one listed); `changed`, it differs from
 * that; `new`, listed after the upstream's tools were first pinned; `rejected`, an ADMIN refused
 * this very definition. Only `pinned` tools are listed to agents and callable.
 */
export type ToolPinState = 'pinned' | 'changed' | 'new' | 'rejected';

/** One upstream tool's pin, as ADMINs review it. */
export interface ToolPin {
  tool: string;
  state: ToolPinState;
  /** The approved definition and its digest; null for a tool never approved. */
  pinned: { definition: ToolDefinition; digest: string } | null;
  /** The definition last listed by the upstream. */
  current: { definition: ToolDefinition; digest: string };
  /** When the upstream last listed a definition other than the one before it. */
  changed_at: string;
  /** The ADMIN who last approved or rejected it (null for one pinned on first listing), and when. */
  decided_by: string | null;
  decided_at: string | null;
}

/** A definition as an upstream just listed it. */
export interface ListedDefinition {
  definition: ToolDefinition;
  digest: string;
}

/** Storage port of the pinned tool definitions of the registered upstreams (migration 048). Implemented in db/. */
export interface McpToolPins {
  /**
   * Records what the upstream `server` lists now and answers each listed tool's pin. The first
   * listing of a server (at its registration, or the first one after the upgrade that brought
   * pinning) pins every tool it lists (trust on first use); later ones keep the pins and mark
   * what differs. A server not registered answers an empty map.
   */
  reconcile(server: string, listed: readonly ListedDefinition[]): Promise<Map<string, ToolPin>>;
  /** Every tool ever listed by the server; null when no such server is registered. */
  list(server: string): Promise<ToolPin[] | null>;
  /**
   * Pins the tool's current definition (`approve`) or refuses it (`reject`); null when the
   * server or tool is unknown. `digest`, when given, must be the current definition's, so an
   * ADMIN never approves a definition that changed after they looked (else ConflictError).
   */
  decide(server: string, tool: string, decision: 'approve' | 'reject', by: string, digest?: string): Promise<ToolPin | null>;
}
