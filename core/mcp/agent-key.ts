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
  /**
   * The version of `compliance_policy` every session the key opens runs under, pinned when the key
   * was made: a newer version reaches the key only when an ADMIN re-points it (PATCH /agent-keys/{id}).
   */
  policy_version: number;
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
  /** Why it was revoked: by an ADMIN, or with its creator's deactivation; null while it is not. */
  revoked_reason: AgentKeyRevokedReason | null;
}

export const AGENT_KEY_REVOKED_REASONS = ['revoked', 'creator_deactivated'] as const;
export type AgentKeyRevokedReason = (typeof AGENT_KEY_REVOKED_REASONS)[number];

export type NewAgentKey = Omit<AgentKey, 'id' | 'created_at' | 'revoked_at' | 'revoked_reason'> & { key_hash: string };

/** A key found by its hash, with whether the ADMIN who created it is still active (core/mcp/mcp-credential.ts decides). */
export interface KeyWithCreator {
  key: AgentKey;
  creator_active: boolean;
}

/** Storage port of agent keys. Implemented in db/. */
export interface AgentKeyStore {
  create(key: NewAgentKey): Promise<AgentKey>;
  /** Every key, newest first, revoked ones included. */
  list(): Promise<AgentKey[]>;
  get(id: string): Promise<AgentKey | null>;
  /** The key with this hash, unless it was revoked, with its creator's state. */
  activeByHash(keyHash: string): Promise<KeyWithCreator | null>;
  /** False when no such key exists; revoking a revoked key changes nothing. */
  revoke(id: string, reason: AgentKeyRevokedReason): Promise<boolean>;
  /** Revokes every key `userId` created that is not revoked yet; answers how many. */
  revokeCreatedBy(userId: string, reason: AgentKeyRevokedReason): Promise<number>;
  /** Points a key that is not revoked at a policy version; null when no such key is, or it is revoked. */
  repoint(id: string, policy: { name: string; version: number }): Promise<AgentKey | null>;
}
