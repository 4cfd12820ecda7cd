import { z } from 'zod';

/** A gateway call held under a policy's `ask` (docs/mcp-gateway.md, "Asking a person"). */
export const agentCallApprovalSchema = z
  .object({
    id: z.string(),
    execution_id: z.string().meta({ description: 'The agent session that made the call.' }),
    seq: z.number().int().meta({ description: "The call's place in the session's record." }),
    tool: z.string().meta({ example: 'github__delete_branch' }),
    arguments: z.record(z.string(), z.unknown()).meta({ description: 'As the agent sent them: what the approval lets through.' }),
    arguments_digest: z.string().meta({ description: 'SHA-256 (hex) of their canonical JSON, as certificates bind them.' }),
    capability: z.string().meta({ description: 'The capability the policy puts under `ask`.' }),
    requested_at: z.string(),
    deadline: z.string().meta({ description: 'After it, the call is denied (`approval_timed_out`) and an approval answers 409.' }),
    owner_id: z.string().meta({ description: "The session's owner, who may not decide it." }),
    owner_name: z.string().nullable(),
    agent_key_creator: z
      .string()
      .nullable()
      .meta({ description: 'The creator of the agent key that opened the session, who may not decide it either.' }),
    workflow_actor_id: z.string().nullable().meta({
      description:
        'For a session a GitHub Actions workflow opened: the account linked to the GitHub login that triggered the run, who may not decide it either.',
    }),
    repo_root: z.string().nullable(),
    decision: z.enum(['approved', 'denied', 'timed_out', 'session_ended']).nullable().meta({ description: 'Null while pending.' }),
    decided_by: z.string().nullable(),
    decided_by_name: z.string().nullable(),
    decided_at: z.string().nullable(),
    reason: z.string().nullable(),
  })
  .meta({ id: 'AgentCallApproval' });

/** A held call as the pending list shows it: large arguments cut to their first bytes. */
export const pendingAgentCallSchema = agentCallApprovalSchema
  .extend({
    arguments: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: 'As the agent sent them; null when their JSON is over 4096 bytes (see `arguments_excerpt`).' }),
    arguments_truncated: z.boolean().meta({ description: 'Whether the arguments were too large to show whole here.' }),
    arguments_excerpt: z
      .string()
      .nullable()
      .meta({ description: 'When truncated: the first 4096 bytes of their JSON. `GET /agent-calls/{id}` shows them whole.' }),
  })
  .meta({ id: 'PendingAgentCall' });

export const agentCallParamsSchema = z.object({ id: z.uuid() });

export const agentCallApproveSchema = z
  .object({ reason: z.string().trim().max(2000).optional().meta({ description: 'Recorded with the approval.' }) })
  .strict()
  .optional();

export const agentCallDenySchema = z
  .object({ reason: z.string().trim().min(1).max(2000).meta({ description: 'The agent is told it, with who denied the call.' }) })
  .strict();
