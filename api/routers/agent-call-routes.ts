import { z } from 'zod';
import { ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js';
import { approverRefusal } from '../../core/mcp/approver-refusal.js';
import type { Deps } from '../deps.js';
import { defineRoute } from '../route.js';
import {
  agentCallApprovalSchema,
  agentCallApproveSchema,
  agentCallDenySchema,
  agentCallParamsSchema,
} from '../schemas/agent-call-schemas.js';

const DECIDERS = ['ADMIN', 'APPROVER'] as const;

/** One person's decision on a held call: refused to the session's owner and key creator, and once decided or past its deadline. */
async function decide(
  deps: Pick<Deps, 'agentCallApprovals'>,
  id: string,
  decision: 'approved' | 'denied',
  userId: string,
  reason: string | null,
) {
  const held = await deps.agentCallApprovals.get(id);
  if (!held) throw new NotFoundError('held call', id);
  const refusal = approverRefusal(held, userId);
  if (refusal) throw new ForbiddenError(refusal);
  const result = await deps.agentCallApprovals.decide(id, decision, userId, reason, new Date());
  if (!result) throw new NotFoundError('held call', id);
  if (!result.decided) {
    const { approval } = result;
    throw new ConflictError(
      approval.decision
        ? `The call was already decided: ${approval.decision}${approval.decided_by_name ? ` by ${approval.decided_by_name}` : ''}.`
        : `The call's deadline (${approval.deadline}) has passed: it is denied to the agent.`,
    );
  }
  return { body: result.approval };
}

const decisionRoute = (decision: 'approve' | 'deny') =>
  defineRoute({
    method: 'post',
    path: `/agent-calls/{id}/${decision}`,
    tags: ['mcp'],
    auth: [...DECIDERS],
    summary: decision === 'approve' ? 'Approve a held gateway call (APPROVER, ADMIN)' : 'Deny a held gateway call (APPROVER, ADMIN)',
    description:
      decision === 'approve'
        ? "The call is forwarded to its upstream and its certificate names the approver (`approved_by`). Neither the session's owner nor the agent key's creator may approve."
        : 'The agent is told the call was denied, by whom and why; it is recorded denied (`denied_by_approver`) with its certificate.',
    params: agentCallParamsSchema,
    body: decision === 'approve' ? agentCallApproveSchema : agentCallDenySchema,
    responses: { 200: { description: 'The call as decided.', schema: agentCallApprovalSchema } },
    errors: {
      403: "The caller owns the call's agent session or created the agent key that opened it.",
      404: 'No such held call.',
      409: 'The call was already decided, or its deadline passed.',
    },
    async handler({ params, body, caller, deps }) {
      return decide(deps, params.id, decision === 'approve' ? 'approved' : 'denied', caller.user.id, body?.reason ?? null);
    },
  });

/** Gateway calls held under a policy's `ask`, and the people who decide them (docs/mcp-gateway.md, "Asking a person"). */
export const agentCallRoutes = [
  defineRoute({
    method: 'get',
    path: '/agent-calls/pending',
    tags: ['mcp'],
    auth: [...DECIDERS],
    summary: 'Gateway calls awaiting a decision (APPROVER, ADMIN)',
    description: 'Every held call whose deadline has not passed, oldest first, with its arguments and the people who may not decide it.',
    responses: { 200: { description: 'Oldest first.', schema: z.array(agentCallApprovalSchema) } },
    async handler({ deps }) {
      return { body: await deps.agentCallApprovals.pending(new Date()) };
    },
  }),
  decisionRoute('approve'),
  decisionRoute('deny'),
];
