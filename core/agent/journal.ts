import type { Certificate } from '../certificates/types.js';
import type { Artifact, Execution, ExecutionErrorCode, ToolCallEntry, Verdict } from '../executions/execution.js';
import type { Policy } from '../policies/policy.js';
import type { ChatMessage } from './provider.js';

/** What the runtime needs to (re)start a run: the record, its policy, and every persisted step. */
export interface RunState {
  execution: Execution;
  policy: Policy;
  /** The provider key override, decrypted; only while the execution is unfinished. */
  apiKeyOverride?: string;
  /** The conversation so far, in order (the task is the first user message). */
  transcript: ChatMessage[];
  /** Approved artifacts of the upstream executions (read_upstream). */
  upstreamArtifacts: { execution_id: string; stage_id: string | null; artifacts: Artifact[] }[];
  /** Certificate digests of the upstream executions (the lineage, as materials). */
  upstreamCertificateDigests: { execution_id: string; digest: string }[];
}

/** A provider turn as the journal records it: the assistant message and what it cost. */
export interface TurnStep {
  assistant: ChatMessage & { role: 'assistant' };
  costCents: number;
}

export interface FinishOutcome {
  status: 'completed' | 'failed' | 'cancelled';
  verdict: Verdict | null;
  output: string | null;
  error: { code: ExecutionErrorCode; message: string } | null;
  /** The execution certificate (final_output_safe); absent for cancelled runs. */
  certificate: Certificate | null;
  /** Why the verdict is non_compliant (blocking denials, output rule hits, budget overrun). */
  violations: string[];
}

/**
 * Persistence port of one run. Every step is stored as it happens, atomically (one
 * transaction or one statement per step), so a worker killed mid-run resumes from the transcript without losing or duplicating
 * a recorded step. Implemented in db/.
 */
export interface ExecutionJournal {
  load(executionId: string): Promise<RunState>;
  /** queued -> running (no-op when already running); false when the run must not proceed (cancelled/finished). */
  start(executionId: string): Promise<boolean>;
  /**
   * A provider turn on its own: the assistant message appended to the transcript and its cost
   * added, atomically. Seen at once; an implementation may make it durable only with the run's
   * next write (a tool call or the end), which the runtime always makes before the next provider
   * call.
   */
  recordTurn(executionId: string, assistant: ChatMessage & { role: 'assistant' }, costCents: number): Promise<void>;
  /**
   * One verified tool call: its entry, the tool message answering it, its certificate (allowed
   * calls) and any artifact, atomically. Recording the same seq twice is a no-op. With `turn`,
   * the provider turn that asked for the call is recorded first in the same atomic write (its
   * first call, when that call's tool runs in process: see record-turn-unless-carried.ts).
   */
  recordToolCall(
    executionId: string,
    entry: ToolCallEntry,
    answer: ChatMessage & { role: 'tool' },
    certificate: Certificate | null,
    artifact: Artifact | null,
    turn?: TurnStep,
  ): Promise<void>;
  /** Ends the run (erasing any key override); a no-op if it already ended (e.g. cancelled meanwhile). */
  finish(executionId: string, outcome: FinishOutcome): Promise<void>;
  /**
   * True once the execution was cancelled; the runtime polls it and aborts the provider call.
   * An implementation may answer the check made right after a step from the status that
   * step's write returned (a cancel landing in between is seen by the next poll).
   */
  isCancelled(executionId: string): Promise<boolean>;
}
