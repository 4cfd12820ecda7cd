import { createTask } from '../../core/executions/create-task.js';
import { defineRoute } from '../route.js';
import { locationHeader } from '../schemas/header-schemas.js';
import { runPlanningPorts } from '../run-planning-ports.js';
import { executionWithOwnerSchema, taskRequestSchema } from '../schemas/execution-schemas.js';
import { withOwnerName } from '../owner-names.js';

export const taskRoutes = [
  defineRoute({
    method: 'post',
    path: '/tasks',
    tags: ['executions'],
    auth: ['ADMIN', 'OPERATOR'],
    summary: 'Create an execution (queued for a worker)',
    description:
      'Resolves the compliance policy and the requested permissions strictly: if any requested permission is dropped ' +
      '(forbidden_by_policy, exceeds_policy_ceiling, exceeds_role_allowance, wildcard_denied_under_compliance) the request answers 403 ' +
      'with `{"detail": {"message", "denied": [{permission, reason, detail}]}}` and nothing is created. An unknown policy or a budget ' +
      "above the policy's max_budget_cents answers 422. The run happens in a worker; poll GET /executions/{execution_id}.",
    body: taskRequestSchema,
    repoAccess: { need: 'write', repository: ({ body }) => body.repo_root },
    responses: {
      201: { description: 'The queued execution.', schema: executionWithOwnerSchema, headers: locationHeader("The execution's URL.") },
    },
    errors: {
      403: "The caller's role is not ADMIN or OPERATOR, or requested permissions exceed the policy (structured detail with the denied list).",
    },
    async handler({ body, caller, deps }) {
      const execution = await createTask({ ...runPlanningPorts(deps), executions: deps.executions }, caller, body);
      return {
        status: 201,
        body: await withOwnerName(deps.accounts, execution),
        headers: { Location: `/api/v1/executions/${execution.id}` },
      };
    },
  }),
];
