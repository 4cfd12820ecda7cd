import type { HookVerdict } from '../../core/hooks/hook-call.js';
import type { AnswerFormat } from './hook-event-of.js';

/** shipgate's verdict in the agent's own output format; `{}` (no opinion) when there is none. */
export function hookAnswer(format: AnswerFormat, verdict: HookVerdict | null): Record<string, unknown> {
  if (!verdict) return {};
  const { decision, reason } = verdict;
  if (format === 'claude')
    return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } };
  if (format === 'copilot') return { permissionDecision: decision, permissionDecisionReason: reason };
  return decision === 'allow' ? { decision } : { decision, reason };
}
