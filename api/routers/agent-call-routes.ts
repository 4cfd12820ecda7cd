import { requireStoredItem } from '../../core/accounts/require-stored-item.js';
import { z } from 'zod';
import { ConflictError, ForbiddenError, NotFoundError } from '../../core/errors.js';
import { approverRefusal } from '../../core/mcp/approver-refusal.js';
import type { Principal } from '../../core/accounts/user.js';
import type { Deps } from '../deps.js';
import { defineRoute } from '../route.js';
import { PENDING_ARGUMENTS_BYTES } from '../../core/mcp/agent-call-approvals.js';
import { linkNext, linkNextHeader, pageQuerySchema, pageRequest } from '../schemas/pagination-schemas.js';
import {
  agentCallApprovalSchema,
  pendingAgentCallSchema,
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
  if (held.repo_root) await requireStoredItem(deps.repoAccess, caller, held.repo_root, 'write', new NotFoundError('held call', id));
  const refusal = approverRefusal(held, userId);
  if (refusal) throw new ForbiddenError(refusal);
  const result = await deps.agentCallApprovals.decide(id, decision, userId, reason, new Date());
  if (!result) throw new NotFoundError('held call', id);
  if (!result.decided) {
    const { approval } = result;
    // A call its session's end or its deadline settled is told as such, whether or not the settling was written first.
    const byPerson = approval.decision === 'approved' || approval.decision === 'denied';
    throw new ConflictError(
      byPerson
        ? `The call was already decided: ${approval.decision}${approval.decided_by_name ? ` by ${approval.decided_by_name}` : ''}.`
        : result.ended || approval.decision === 'session_ended'
          ? "The call's agent session has ended (closed, cancelled, expired, its owner deactivated or its agent key revoked): the call is refused."
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
      409: 'The call was already decided, its deadline passed, or its agent session ended (closed, cancelled, expired, its key revoked).',
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
      'Held calls whose deadline has not passed and whose session is still live, oldest first, a page at a time ' +
      '(`limit`, `cursor`, the next page in `Link`), with the people who may not decide them: only those of repositories the ' +
      'caller may read (docs/api.md, "Repository access"); deciding one needs write there. Arguments whose JSON exceeds ' +
      `${PENDING_ARGUMENTS_BYTES} bytes are shown as their first ${PENDING_ARGUMENTS_BYTES} bytes (\`arguments_excerpt\`, ` +
      '`arguments_truncated: true`, `arguments: null`); `GET /agent-calls/{id}` shows them whole.',
    query: pageQuerySchema,
    responses: { 200: { description: 'Oldest first.', schema: z.array(pendingAgentCallSchema), headers: linkNextHeader } },
    async handler({ query, caller, deps, ctx }) {
      const now = new Date();
      const readable = await deps.repoAccess.readableAmong(caller, () => deps.agentCallApprovals.pendingRepositories(now));
      const page = await deps.agentCallApprovals.pending(now, pageRequest(query), readable);
      linkNext(ctx, page.next);
      return { body: page.items };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/agent-calls/{id}',
    tags: ['mcp'],
    auth: [...DECIDERS],
    summary: 'One held gateway call, its arguments whole (APPROVER, ADMIN)',
    description: 'Pending or decided, with the arguments as the agent sent them, whatever their size.',
    params: agentCallParamsSchema,
    responses: { 200: { description: 'The held call.', schema: agentCallApprovalSchema } },
    errors: { 404: 'No such held call (or one of a repository the caller may not read).' },
    async handler({ params, caller, deps }) {
      const held = await deps.agentCallApprovals.get(params.id);
      if (!held) throw new NotFoundError('held call', params.id);
      if (held.repo_root)
        await requireStoredItem(deps.repoAccess, caller, held.repo_root, 'read', new NotFoundError('held call', params.id));
      return { body: held };
    },
  }),
  decisionRoute('approve'),
  decisionRoute('deny'),
];
