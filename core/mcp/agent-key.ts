/**
 * A repository agent key (docs/mcp-gateway.md, "Repository agent keys"): configured once in an
 * agent's MCP settings; each MCP session opened with it becomes a new governed agent session of
 * its repository, on the terms stored here. The key itself is shown once; only its hash is kept.
 */
export interface AgentKey {
  id: string;
  name: string;
  repo_root: string;
  compliance_policy: string;
  /** Requested capabilities; null means the policy's defaults. */
  permissions: string[] | null;
  servers: string[];
  max_tool_calls: number | null;
  /** How long each session it opens may last. */
  session_seconds: number;
  /** Owns the sessions the key opens. */
  created_by: string;
  created_at: string;
  revoked_at: string | null;
}

export type NewAgentKey = Omit<AgentKey, 'id' | 'created_at' | 'revoked_at'> & { key_hash: string };

/** Storage port of agent keys. Implemented in db/. */
export interface AgentKeyStore {
  create(key: NewAgentKey): Promise<AgentKey>;
  /** Every key, newest first, revoked ones included. */
  list(): Promise<AgentKey[]>;
  /** The key with this hash, unless it was revoked. */
  activeByHash(keyHash: string): Promise<AgentKey | null>;
  /** False when no such key exists; revoking a revoked key changes nothing. */
  revoke(id: string): Promise<boolean>;
}
