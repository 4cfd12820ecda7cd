import type { Artifact, ExecutionErrorCode, ToolCallEntry, Verdict } from '../executions/execution.js';
import type { Policy } from '../policies/policy.js';
import { scanOutput } from './output-rules.js';
import { recordedText } from './recorded-arguments.js';

export interface VerdictFacts {
  policy: Policy;
  toolCalls: readonly ToolCallEntry[];
  /** What each tool call answered to the model, by seq (the recorded tool messages). */
  toolAnswers: ReadonlyMap<number, string>;
  artifacts: readonly Artifact[];
  output: string | null;
  costCents: number;
  budgetCents: number;
  /** Why the run failed, when it did. */
  errorCode: ExecutionErrorCode | null;
}

/** What recorded-arguments.ts left of a secret: `[REDACTED:secrets:github_token]`. */
const REPLACED_SECRET = /\[REDACTED:secrets:([a-z_]+)\]/g;

/**
 * The output rules' hits in a call's arguments as recorded: the secrets recorded-arguments.ts
 * replaced (the model wrote one into a tool's input: sent on, or kept in an artifact's name),
 * and any other rule's hits in their text.
 */
function argumentHits(rules: readonly string[], args: unknown): string[] {
  const text = typeof args === 'string' ? args : (JSON.stringify(args) ?? '');
  const replaced = rules.includes('secrets') ? [...text.matchAll(REPLACED_SECRET)].map((m) => `secrets:${m[1]}`) : [];
  return [...new Set([...replaced, ...scanOutput(rules, text)])];
}

/** Failures that are violations in themselves: the budget was (or could no longer be shown not to be) overrun. */
const FAILURES_IN_VIOLATION: readonly ExecutionErrorCode[] = ['budget_exceeded', 'usage_missing'];

/**
 * The verdict of a finished run (docs/workflows.md, "Governed agent executions": verdict), derived only from what was recorded, so a resumed
 * run gets the same answer: non_compliant for a denied call under a blocking policy, an output
 * rule hit in a call's arguments, a tool output, an artifact (its name too) or the final output,
 * or a budget overrun.
 */
export function decideVerdict(facts: VerdictFacts): { verdict: Verdict; violations: string[] } {
  const violations: string[] = [];
  const rules = facts.policy.output_rules;
  for (const call of facts.toolCalls) {
    if (call.verdict === 'denied' && facts.policy.denied_call_severity === 'blocking') {
      violations.push(`denied_call:${call.seq}:${call.reason}`);
    }
    for (const hit of argumentHits(rules, call.arguments)) violations.push(`output_rule:${hit}:tool_call_arguments:${call.seq}`);
    const answer = facts.toolAnswers.get(call.seq);
    if (call.verdict === 'allowed' && answer) {
      for (const hit of scanOutput(rules, answer)) violations.push(`output_rule:${hit}:tool_call:${call.seq}`);
    }
  }
  for (const artifact of facts.artifacts) {
    // Named as recorded: a secret in the name would otherwise be signed into the verdict's violations.
    const named = recordedText(artifact.name);
    for (const hit of new Set([...scanOutput(rules, artifact.content), ...scanOutput(rules, artifact.name)]))
      violations.push(`output_rule:${hit}:artifact:${named}`);
  }
  if (facts.output) {
    for (const hit of scanOutput(rules, facts.output)) violations.push(`output_rule:${hit}:final_output`);
  }
  if (facts.costCents > facts.budgetCents) violations.push(`budget_overrun:${facts.costCents}>${facts.budgetCents}`);
  else if (facts.errorCode && FAILURES_IN_VIOLATION.includes(facts.errorCode)) violations.push(facts.errorCode);
  return { verdict: violations.length > 0 ? 'non_compliant' : 'compliant', violations };
}
