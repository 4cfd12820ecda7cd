import type { RunState } from './journal.js';
import { redactOutput } from './output-rules.js';
import { truncateUtf8 } from './truncate-utf8.js';

/** Upstream artifacts quoted in the prompt are cut here; read_upstream returns them whole. */
const ARTIFACT_PROMPT_BYTES = 8 * 1024;

/**
 * The upstream stages' artifacts, through this stage's output rules as read_upstream answers
 * them: an upstream stage's leak reaches no later stage's model (its own verdict records it).
 */
function upstreamSection(state: RunState): string[] {
  if (state.upstreamArtifacts.length === 0) return [];
  const rules = state.policy.output_rules;
  const lines = ['', 'Artifacts of the upstream stages this stage builds on:'];
  for (const upstream of state.upstreamArtifacts) {
    lines.push(`- execution ${upstream.execution_id}${upstream.stage_id ? ` (stage ${upstream.stage_id})` : ''}:`);
    for (const a of upstream.artifacts) {
      const approval = a.approved_for_release === undefined ? '' : `, approved_for_release: ${a.approved_for_release}`;
      lines.push(
        `  * ${a.kind} "${a.name}" (sha256 ${a.digest}${approval}):`,
        truncateUtf8(redactOutput(rules, a.content), ARTIFACT_PROMPT_BYTES),
      );
    }
  }
  return lines;
}

/** The system message: the governing policy and limits, the bound repository, and upstream artifacts. */
export function buildSystemPrompt(state: RunState, budgetCents: number): string {
  const { execution: e, policy } = state;
  return [
    `You are an agent working under the shipgate compliance policy "${policy.name}" (version ${policy.version}) as a ${e.stage_role} stage.`,
    `Capabilities granted: ${e.permissions.join(', ') || 'none'}.${policy.forbidden.length ? ` Forbidden: ${policy.forbidden.join(', ')}.` : ''}`,
    `Every tool call is verified before it runs; a refused call is answered "DENIED: <reason>". At most ${policy.max_tool_calls} tool calls and a budget of ${budgetCents} cents.`,
    ...(e.repo_root && e.commit_sha ? [`The subject of this work is the repository ${e.repo_root} at commit ${e.commit_sha}.`] : []),
    ...(policy.output_rules.length
      ? [`Never include in your output or artifacts anything these rules forbid: ${policy.output_rules.join(', ')}.`]
      : []),
    'When the work is done, reply with your final answer and no tool call.',
    ...upstreamSection(state),
  ].join('\n');
}
