import { isForbidden } from '../policies/is-forbidden.js';
import type { DenialReason } from '../executions/execution.js';
import { isRecordableJson } from '../json-value-holds.js';
import type { Policy } from '../policies/policy.js';
import { capabilityMatches } from '../policies/capability-matches.js';
import type { ToolCallRequest } from './provider.js';
import type { Tool, ToolContext } from './tools/tool.js';

export interface VerifyContext {
  tools: ReadonlyMap<string, Tool>;
  policy: Policy;
  /** The capabilities the execution holds (resolved permissions). */
  permissions: readonly string[];
  costCents: number;
  budgetCents: number;
  /** The seq this call gets (1-based, counting every call attempted so far). */
  seq: number;
  toolContext: Omit<ToolContext, 'signal'>;
}

export type Verification =
  | { verdict: 'allowed'; tool: Tool; arguments: unknown; input: unknown; properties: string[] }
  | { verdict: 'denied'; tool: Tool | null; arguments: unknown; reason: DenialReason };

/** What an allowed call was shown to satisfy, in the order checked (the certificate's verified_properties). */
export const VERIFIED_PROPERTIES = [
  'tool_known',
  'arguments_valid',
  'capability_not_forbidden',
  'capability_granted',
  'within_budget',
  'within_call_limit',
  'arguments_safe',
];

/**
 * The model's argument text as JSON; blank means no arguments (OpenAI sends "" for parameterless calls).
 * A value that could not be recorded or signed as given (isRecordableJson) counts as not parsing: the
 * entry then keeps the text.
 */
function parseArguments(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    return isRecordableJson(value) ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

/**
 * Verifies one tool call, failing closed, in a fixed order (docs/workflows.md, "Governed agent executions"): unknown tool, unparsable
 * arguments, arguments failing the tool's schema, capability forbidden by the policy,
 * capability not granted, budget exhausted, tool-call limit reached, the tool's argument rule.
 */
export async function verifyToolCall(call: ToolCallRequest, ctx: VerifyContext): Promise<Verification> {
  const tool = ctx.tools.get(call.name) ?? null;
  const parsed = parseArguments(call.arguments);
  const args = parsed.ok ? parsed.value : call.arguments;
  const deny = (reason: DenialReason): Verification => ({ verdict: 'denied', tool, arguments: args, reason });
  if (!tool) return deny('unknown_tool');
  if (!parsed.ok) return deny('invalid_arguments');
  const valid = tool.schema.safeParse(parsed.value);
  if (!valid.success) return deny('invalid_arguments');
  if (isForbidden(ctx.policy.forbidden, tool.capability)) return deny('forbidden_by_policy');
  if (!ctx.permissions.some((pattern) => capabilityMatches(pattern, tool.capability))) return deny('capability_not_granted');
  if (ctx.costCents >= ctx.budgetCents) return deny('budget_exhausted');
  if (ctx.seq > ctx.policy.max_tool_calls) return deny('tool_call_limit');
  const rule = tool.checkArguments ? await tool.checkArguments(valid.data, ctx.toolContext) : null;
  if (rule) return deny(`argument_rule:${rule}`);
  return { verdict: 'allowed', tool, arguments: args, input: valid.data, properties: VERIFIED_PROPERTIES };
}
