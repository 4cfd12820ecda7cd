import type { ProviderName } from '../agent/provider.js';
import type { Page, PageRequest } from '../pagination.js';
import type { DroppedPermission, PolicyRef, StageRole } from '../policies/policy.js';
import type { Execution, ExecutionStatus, ToolCallEntry } from './execution.js';

/** What creating an execution needs; the store assigns id, status `queued` and timestamps. */
export interface NewExecution {
  owner_id: string;
  workflow_id?: string | null;
  stage_id?: string | null;
  task: string;
  policy: PolicyRef;
  stage_role: StageRole;
  permissions: string[];
  dropped_permissions: DroppedPermission[];
  budget_cents: number;
  /** Null for agent sessions (docs/mcp-gateway.md). */
  provider: ProviderName | null;
  model: string | null;
  /** A per-execution provider key; stored encrypted, erased when the run ends, never returned. */
  api_key?: string;
  upstream_execution_ids?: string[];
  repo_root?: string | null;
  commit_sha?: string | null;
}

/** A list entry: the record without its (possibly long) tool calls, certificates and artifacts. */
export type ExecutionSummary = Omit<Execution, 'tool_calls' | 'certificates' | 'artifacts'>;

export interface ExecutionListQuery {
  /** Only this owner's executions; undefined lists everyone's. */
  ownerId?: string;
  status?: ExecutionStatus;
  page: PageRequest;
  /** Only those not bound to a repository or bound to one of these (the caller's readable ones, docs/api.md "Repository access"). */
  repoRoots?: string[];
}

/** Tool calls in seq order, after `afterSeq`. */
export interface ToolCallPage {
  items: ToolCallEntry[];
  /** The seq to continue after, when more exist. */
  nextAfterSeq?: number;
}

/** Storage port for execution records. Implemented in db/. */
export interface ExecutionStore {
  /** Stores the execution and, unless `enqueue` is false, queues its run in the same transaction. */
  create(input: NewExecution, options?: { enqueue?: boolean }): Promise<Execution>;
  /** The full record: tool calls, certificates and artifacts included. */
  get(id: string): Promise<Execution | null>;
  /** The record without children: for access checks and status reads on long runs. */
  getSummary(id: string): Promise<ExecutionSummary | null>;
  list(query: ExecutionListQuery): Promise<Page<ExecutionSummary>>;
  listToolCalls(executionId: string, page: { limit: number; afterSeq?: number }): Promise<ToolCallPage>;
  /** queued/running -> cancelled (erasing any key override); other states unchanged. Null if unknown. */
  cancel(id: string): Promise<Execution | null>;
}
