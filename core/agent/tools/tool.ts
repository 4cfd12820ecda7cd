import type { PublicWeb } from './public-web.js';
import { z } from 'zod';
import type { Artifact, Execution } from '../../executions/execution.js';
import type { RepoReader } from '../../github/repo-reader.js';
import type { RunState } from '../journal.js';
import type { ToolDefinition } from '../provider.js';

/** What a tool may see and use while it checks or runs one call. */
export interface ToolContext {
  execution: Execution;
  upstreamArtifacts: RunState['upstreamArtifacts'];
  repoReader?: RepoReader;
  httpAllowlist: readonly string[];
  /** The network, for http_get (net/ implements it). */
  web: PublicWeb;
  /** Fires on the tool's timeout. */
  signal: AbortSignal;
}

export interface ToolResult {
  /** The full output (the model gets it, the entry keeps its first 4 KiB, result_digest covers all of it). */
  output: string;
  artifact?: Artifact;
}

/**
 * What a tool's run answers: its output as text, or `data`, a JSON value whose JSON text is the
 * output. Either way the policy's output rules apply to each string value before the model or
 * the record sees it (core/agent/redact-tool-answer.ts), so a tool that answers data returns
 * the value, not its JSON text.
 */
export type ToolAnswer = ToolResult | { data: unknown; artifact?: Artifact };

/** One tool of the registry (docs/workflows.md, "Governed agent executions": tools): its zod schema validates the arguments and is the model's JSON schema. */
export interface Tool<S extends z.ZodType = z.ZodType> {
  /** The one name the model is offered and every record carries. */
  name: string;
  /**
   * Former names a model may still call it by. Such a call is this tool's call: verified,
   * certified and recorded under `name`; only the model's turn in the transcript keeps the name
   * it used (docs/workflows.md, "Governed agent executions": tools).
   */
  aliases?: readonly string[];
  description: string;
  capability: string;
  schema: S;
  /**
   * Runs in this process and touches nothing outside the run (no network, no I/O), so it ends
   * within microseconds: the turn that called it is recorded in the same write as the call
   * (ARCHITECTURE.md, "Sending SQL"). Any other tool waits until its turn is recorded.
   */
  inProcess?: boolean;
  /** Upper bound on one run; the call is answered with an error when it is exceeded. */
  timeoutMs?: number;
  /** Verification's argument rule: the rule the arguments break (denied as `argument_rule:<rule>`), or null. */
  checkArguments?(args: z.output<S>, ctx: Omit<ToolContext, 'signal'>): Promise<string | null>;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolAnswer>;
}

/** Keeps a tool's schema and handlers in one inferred type, then erases it for the registry. */
export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool {
  return tool as unknown as Tool;
}

/** The definition the model sees: name, description and the JSON schema of the arguments. */
export function toolDefinition(tool: Tool): ToolDefinition {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(tool.schema, { io: 'input' }) as Record<string, unknown>;
  return { name: tool.name, description: tool.description, parameters };
}
