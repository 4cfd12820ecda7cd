import type { TaskPorts } from '../core/executions/create-task.js';
import { resolvePermissions } from '../core/policies/resolve-permissions.js';
import type { Deps } from './deps.js';

/**
 * What planning a governed run needs, for a task as for each workflow stage: the policies,
 * permission resolution and the configured provider and model for requests that name none.
 */
export function runPlanningPorts(deps: Deps): Omit<TaskPorts, 'executions'> {
  return {
    policies: deps.policies,
    resolvePermissions,
    defaults: { provider: deps.config.providers.defaultProvider, model: deps.config.providers.defaultModel },
  };
}
