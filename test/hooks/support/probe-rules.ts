import { toolAction } from '../../../core/hooks/tool-action.js';
import { firstMatchingRule, type ToolRule } from '../../../core/policies/tool-rules.js';

export const PROBE_ROOT = '/work/acme-shop';

/** The rules a security probe ran shell lines past: docs/agent-hooks.md's example rules on force pushes, secrets and workflows. */
export const PROBE_RULES: ToolRule[] = [
  { match: { command: 'git push --force*' }, verdict: 'deny' },
  { match: { read: '.env*' }, verdict: 'deny' },
  { match: { write: '.github/workflows/**' }, verdict: 'ask' },
];

/** The index of the first of `rules` that holds for a Bash call of `command` from `cwd`, or null. */
export const ruleIndex = (command: string, rules: ToolRule[] = PROBE_RULES, cwd = PROBE_ROOT): number | null =>
  firstMatchingRule(rules, toolAction('Bash', { command }, cwd))?.index ?? null;
