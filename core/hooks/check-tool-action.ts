import type { DenialReason } from '../executions/execution.js';
import { newOverlapBudget } from '../glob-overlap.js';
import { reachedCapability } from '../policies/reached-capability.js';
import { askedCapability } from '../policies/asked-capability.js';
import type { Policy } from '../policies/policy.js';
import { firstMatchingRule } from '../policies/tool-rules.js';
import { missingCapability } from '../mcp/gateway-tools.js';
import type { ToolAction } from './tool-action.js';

/** What an allowed hook call was shown to satisfy, in the order checked (its certificate's verified_properties). */
export const HOOK_VERIFIED_PROPERTIES = [
  'session_open',
  'arguments_valid',
  'capability_not_forbidden',
  'capability_granted',
  'within_call_limit',
  'tool_rules_pass',
];

/** Why a call is refused, the capability it concerns, and what the agent is told. */
export interface HookDenial {
  reason: DenialReason;
  capability: string | null;
  detail?: string;
}

/** The policy's verdict on a call before anyone is asked: refused, held for a person (`ask`, naming what), or allowed. */
export type ActionCheck = { denial: HookDenial } | { ask: string; rule: number | null } | { allowed: true };

const FAILED_CHECK: Partial<Record<string, string>> = {
  invalid_arguments: 'arguments_valid',
  forbidden_by_policy: 'capability_not_forbidden',
  capability_not_granted: 'capability_granted',
  tool_call_limit: 'within_call_limit',
};

/** What a refused call was shown to satisfy before the check that refused it (a held one that was not approved passed every check). */
export function hookPropertiesBefore(reason: DenialReason): string[] {
  if (reason.startsWith('tool_rule:')) return HOOK_VERIFIED_PROPERTIES.slice(0, -1);
  if (reason === 'denied_by_approver' || reason === 'approval_timed_out') return HOOK_VERIFIED_PROPERTIES;
  const failed = HOOK_VERIFIED_PROPERTIES.indexOf(FAILED_CHECK[reason] ?? '');
  return HOOK_VERIFIED_PROPERTIES.slice(0, failed < 0 ? 1 : failed);
}

/** What a rule matched, for the agent and the record. */
function ruleText(action: ToolAction, index: number): string {
  const what =
    action.command !== undefined
      ? `command '${action.command}'`
      : `${action.tool} ${[...action.writes, ...action.reads, ...action.hosts].join(', ')}`;
  return `tool_rules[${index}] matches ${what.trim()}`;
}

/**
 * The policy's checks on one tool call, in order (docs/agent-hooks.md, "How a call is decided"):
 * input that is not the tool's (a shell call without a command line, a file tool without a
 * path), a forbidden capability, one the session was not granted, the session's call limit, then the
 * first matching `tool_rules` entry (deny, ask, or allow), then the policy's `ask` capabilities.
 */
export function checkToolAction(
  action: ToolAction,
  terms: { policy: Policy; permissions: readonly string[] },
  callNumber: number,
  maxToolCalls: number,
): ActionCheck {
  if (action.malformed) return { denial: { reason: 'invalid_arguments', capability: null, detail: action.malformed } };
  const missing = missingCapability(action.capabilities, terms.policy, terms.permissions);
  if (missing?.reason === 'forbidden_by_policy') return { denial: missing };
  // What a shell line (or any tool) reads, writes or reaches meets a forbidden or asked capability as a file or fetch tool's would.
  // One overlap budget for the call's every rule list (glob-overlap.ts): a policy with forbidden and asked file capabilities costs no more per call.
  const budget = newOverlapBudget();
  const forbiddenReach = reachedCapability(terms.policy.forbidden, action, budget);
  if (forbiddenReach) return { denial: { reason: 'forbidden_by_policy', capability: forbiddenReach } };
  if (missing) return { denial: missing };
  if (callNumber > maxToolCalls) return { denial: { reason: 'tool_call_limit', capability: null } };
  const matched = firstMatchingRule(terms.policy.tool_rules, action, budget);
  const capability = action.capabilities[0] ?? null;
  if (matched?.rule.verdict === 'deny')
    return { denial: { reason: `tool_rule:${matched.index}`, capability, detail: ruleText(action, matched.index) } };
  if (matched?.rule.verdict === 'ask') return { ask: capability ?? action.tool, rule: matched.index };
  const asked = askedCapability(action.capabilities, terms.policy) ?? reachedCapability(terms.policy.ask ?? [], action, budget);
  return asked ? { ask: asked, rule: null } : { allowed: true };
}
