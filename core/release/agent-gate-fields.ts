import { z } from 'zod';
import { DEFAULT_NOT_AGENTS } from './known-agents.js';

const entry = z.string().trim().min(1).max(200);
const list = z.array(entry).max(100);

/** Who is an agent (docs/release-gate.md, "Agents on pull requests"); built-in agents are in known-agents.ts. */
export const agentsSchema = z
  .object({
    accounts: list.default([]).meta({ description: 'GitHub logins of agents (e.g. `my-agent[bot]`), besides the built-in ones.' }),
    coauthor_emails: list
      .default([])
      .meta({ description: 'Git e-mails that name an agent as a commit author, committer or `Co-authored-by:` trailer.' }),
    bots_are_agents: z.boolean().default(true).meta({ description: 'Any account GitHub reports with `type: "Bot"` is an agent.' }),
    not_agents: list.default([...DEFAULT_NOT_AGENTS]).meta({
      description:
        'Logins that are never agents, even as bots or built-in agents (default: dependency and CI bots and shipgate itself). `accounts` wins over it.',
    }),
  })
  .strict()
  .meta({ id: 'ReleaseGateAgents' });

/** What an agent-authored pull request needs beyond the gate's other fields. */
export const agentChangesSchema = z
  .object({
    required_human_approvals: z.number().int().min(0).max(10).default(1).meta({
      description:
        'Approving reviews needed from independent people: not an agent or bot, write permission or more, not an author, committer or co-author of the pull request, nor (for an agent’s pull request) an assignee.',
    }),
    dismiss_stale_approvals: z.boolean().default(true).meta({ description: 'Only an approval of the current head counts.' }),
    require_governed_work: z.boolean().default(true).meta({
      description: 'Every agent-authored commit needs governed work bound to it (a completed workflow or compliant execution).',
    }),
  })
  .strict()
  .meta({ id: 'ReleaseGateAgentChanges' });

export type AgentsConfig = z.output<typeof agentsSchema>;
export type AgentChangesConfig = z.output<typeof agentChangesSchema>;

/** Whether the gate has any rule for agents' changes: without one, unknown authorship blocks nothing. */
export function hasAgentRules(rules: AgentChangesConfig): boolean {
  return rules.required_human_approvals > 0 || rules.require_governed_work;
}
