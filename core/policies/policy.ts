import type { ToolRule } from './tool-rules.js';

/** A compliance policy (= preset): versioned, immutable data. See docs/workflows.md, "Governed agent executions": policies. */
export interface Policy {
  name: string;
  version: number;
  description: string;
  /** Capabilities an execution under this policy may ever hold (`*` segments allowed). */
  ceiling: string[];
  /** Granted when a request names no permissions. */
  defaults: string[];
  /** Never granted, whatever is requested. */
  forbidden: string[];
  /** `blocking`: a denied tool call makes the execution non_compliant. */
  denied_call_severity: 'warning' | 'blocking';
  /** Names of output rules applied to tool outputs and the final answer, e.g. `secrets`, `pii`. */
  output_rules: string[];
  max_tool_calls: number;
  max_budget_cents: number;
  retention_days: number;
  /**
   * Capabilities whose calls are held for a person's decision (docs/mcp-gateway.md, "Asking a
   * person"), each within the ceiling. Absent when none, so older policies keep their digests.
   */
  ask?: string[];
  /** How long a held call waits for a decision before it is denied (5 to 3600; 120 when absent). */
  ask_timeout_seconds?: number;
  /**
   * Rules on a coding agent's tool calls by command, path, host or tool (docs/agent-hooks.md,
   * "tool_rules"), the first match deciding. Absent when none, so older policies keep their digests.
   */
  tool_rules?: ToolRule[];
}

/** What an execution records of the policy it ran under. */
export interface PolicyRef {
  name: string;
  version: number;
  /** SHA-256 (hex) of the policy's canonical JSON. */
  digest: string;
}

export const STAGE_ROLES = ['intake', 'reviewer', 'release', 'worker'] as const;
export type StageRole = (typeof STAGE_ROLES)[number];

export type DropReason = 'forbidden_by_policy' | 'exceeds_policy_ceiling' | 'exceeds_role_allowance' | 'wildcard_denied_under_compliance';

export interface DroppedPermission {
  permission: string;
  reason: DropReason;
  detail: string;
}

export interface Resolution {
  /** The capabilities the execution holds. */
  effective: string[];
  dropped: DroppedPermission[];
}

/** Storage port for custom policies (built-in presets live in code). Implemented in db/. */
export interface PolicyStore {
  /** The newest version when `version` is omitted; resolves built-ins and the `legal` alias too. */
  get(name: string, version?: number): Promise<Policy | null>;
  list(): Promise<Policy[]>;
  /** Stores a new version (previous + 1, or 1) of a custom policy; built-in names are refused. */
  create(policy: Omit<Policy, 'version'>, createdBy: string): Promise<Policy>;
}
