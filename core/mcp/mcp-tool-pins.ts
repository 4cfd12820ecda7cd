import type { ToolDefinition } from './tool-definition.js';

/**
 * Where an upstream tool stands (docs/mcp-gateway.md, "Pinned tool definitions"): `pinned`, its
 * definition is the one an ADMIN approved (or the first one listed); `changed`, it differs from
 * that; `new`, listed after the upstream's tools were first pinned; `rejected`, an ADMIN refused
 * this very definition. Only `pinned` tools are listed to agents and callable. In the review's
 * order: what awaits an ADMIN first, a changed tool before a new one.
 */
export const TOOL_PIN_STATES = ['changed', 'new', 'rejected', 'pinned'] as const;
export type ToolPinState = (typeof TOOL_PIN_STATES)[number];

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

/** What a listing left in the store: each listed tool's pin, and the new tools it left unrecorded (MAX_NEW_TOOL_PINS). */
export interface ReconciledPins {
  /** By tool name; a tool left unrecorded has none (it is quarantined as `new`). */
  pins: Map<string, ToolPin>;
  unrecorded: string[];
}

/** A place in the review's order (TOOL_PIN_STATES, then the tool's name): where a page ends. */
export interface ToolPinCursor {
  state: ToolPinState;
  tool: string;
}

/** A page of the review: at most `limit` tools after `after`, optionally of one state. */
export interface ToolPinPageRequest {
  limit: number;
  state?: ToolPinState;
  after?: ToolPinCursor;
}

/** Storage port of the pinned tool definitions of the registered upstreams (migration 048). Implemented in db/. */
export interface McpToolPins {
  /**
   * Records what the upstream `server` lists now and answers each listed tool's pin. The first
   * listing of a server (at its registration, or the first one after the upgrade that brought
   * pinning) pins every tool it lists (trust on first use); later ones keep the pins and mark
   * what differs, recording a new tool only while fewer than MAX_NEW_TOOL_PINS of the server's
   * await approval. A server not registered answers no pins.
   */
  reconcile(server: string, listed: readonly ListedDefinition[]): Promise<ReconciledPins>;
  /** A page of the tools the server listed, in the review's order, and where the next begins; null when no such server is registered. */
  list(server: string, page: ToolPinPageRequest): Promise<{ items: ToolPin[]; next?: ToolPinCursor } | null>;
  /**
   * Pins the tool's current definition (`approve`) or refuses it (`reject`); null when the
   * server or tool is unknown. `digest`, when given, must be the current definition's, so an
   * ADMIN never approves a definition that changed after they looked (else ConflictError).
   */
  decide(server: string, tool: string, decision: 'approve' | 'reject', by: string, digest?: string): Promise<ToolPin | null>;
}
