import type { Page, PageRequest } from '../pagination.js';
import type { NewWorkflow, StageStatus, Workflow, WorkflowStatus } from './workflow.js';

export interface WorkflowListQuery {
  /** Only this owner's workflows; undefined lists everyone's. */
  ownerId?: string;
  status?: WorkflowStatus;
  page: PageRequest;
  /** Only those not bound to a repository or bound to one of these (the caller's readable ones, docs/api.md "Repository access"). */
  repoRoots?: string[];
}

/** How a stage transition also ends its workflow: the workflow's status and what every later pending stage becomes. */
export interface WorkflowClose {
  status: Exclude<WorkflowStatus, 'queued' | 'running'>;
  laterStages: Extract<StageStatus, 'skipped' | 'cancelled'>;
}

export interface StageTransition {
  /** The transition happens only from one of these (a guard checked in the same statement). */
  from: StageStatus[];
  to: StageStatus;
  blocked_reasons?: string[];
}

/**
 * Storage port of workflows, and the guarded transitions orchestration makes. Every transition
 * is one transaction that checks the state it starts from, so a resumed or concurrent attempt
 * can never start a stage twice or revive a finished workflow. Implemented in db/.
 */
export interface WorkflowStore {
  /** Stores the workflow and queues its orchestration job in the same transaction. */
  create(input: NewWorkflow): Promise<Workflow>;
  get(id: string): Promise<Workflow | null>;
  list(query: WorkflowListQuery): Promise<Page<Workflow>>;
  /**
   * queued/running -> cancelled: its unfinished stages become `cancelled` (their keys erased) and
   * the running stage's execution is cancelled too. Other states unchanged. Null if unknown.
   */
  cancel(id: string): Promise<{ workflow: Workflow; cancelled_stage_ids: string[] } | null>;
  /** queued -> running; false when the workflow is finished (or gone) and must not advance. */
  start(id: string): Promise<boolean>;
  /**
   * pending -> running, creating the stage's execution (not queued: the workflow job runs it)
   * bound to `upstreamExecutionIds`, and handing it the stage's sealed key. Null when the stage
   * was not pending (another attempt started it) or the workflow is no longer running.
   */
  startStage(workflowId: string, stageId: string, upstreamExecutionIds: string[]): Promise<string | null>;
  /** Moves one stage (erasing its key) and, with `close`, ends the workflow while it is running. False when the guard failed. */
  transitionStage(workflowId: string, stageId: string, change: StageTransition, close?: WorkflowClose): Promise<boolean>;
  /** running -> `status` (later pending stages -> `laterStages`), for a workflow whose stages all ended. */
  finish(workflowId: string, close: WorkflowClose): Promise<boolean>;
}
