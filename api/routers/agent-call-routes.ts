import { z } from 'zod';
import { ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js';
import { approverRefusal } from '../../core/mcp/approver-refusal.js';
import type { Principal } from '../../core/accounts/user.js';
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
  deps: Pick<Deps, 'agentCallApprovals' | 'repoAccess'>,
  id: string,
  decision: 'approved' | 'denied',
  caller: Principal,
  reason: string | null,
) {
  const userId = caller.user.id;
  const held = await deps.agentCallApprovals.get(id);
  if (!held) throw new NotFoundError('held call', id);
  // Deciding what an agent does to a repository needs write there, like the work itself (404 to whoever may not read it).
  if (held.repo_root) await deps.repoAccess.require(caller, held.repo_root, 'write');
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
      403: "The caller owns the call's agent session or created the agent key that opened it, or may not write to its repository.",
      404: 'No such held call (or one of a repository the caller may not read).',
      409: 'The call was already decided, or its deadline passed.',
    },
    async handler({ params, body, caller, deps }) {
      return decide(deps, params.id, decision === 'approve' ? 'approved' : 'denied', caller, body?.reason ?? null);
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
    description:
      'Every held call whose deadline has not passed, oldest first, with its arguments and the people who may not decide it: ' +
      'only those of repositories the caller may read (docs/api.md, "Repository access"); deciding one needs write there.',
    responses: { 200: { description: 'Oldest first.', schema: z.array(agentCallApprovalSchema) } },
    async handler({ caller, deps }) {
      const pending = await deps.agentCallApprovals.pending(new Date());
      const readable = await deps.repoAccess.readableAmong(caller, async () => pending.flatMap((p) => (p.repo_root ? [p.repo_root] : [])));
      return { body: readable ? pending.filter((p) => p.repo_root === null || readable.includes(p.repo_root)) : pending };
    },
  }),
  decisionRoute('approve'),
  decisionRoute('deny'),
];
