import type { Principal } from '../accounts/user.js';
import type { ProviderName } from '../agent/provider.js';
import { PolicyDeniedError, ValidationError } from '../errors.js';
import { policyRef } from '../policies/policy-digest.js';
import type { Policy, PolicyStore, Resolution, StageRole } from '../policies/policy.js';
import type { Execution } from './execution.js';
import type { ExecutionStore } from './execution-store.js';

export interface TaskInput {
  task: string;
  compliance_policy: string;
  budget_cents: number;
  provider?: ProviderName;
  model?: string;
  api_key?: string;
  permissions?: string[];
  stage_role: StageRole;
  repo_root?: string;
  commit_sha?: string;
}

export interface TaskPorts {
  policies: Pick<PolicyStore, 'get'>;
  executions: ExecutionStore;
  resolvePermissions(policy: Policy, stageRole: StageRole, requested: string[] | undefined): Resolution;
  defaults: { provider: ProviderName; model: string };
}

/** Each provider's model when the request names none and the configured default is another provider's. */
const PROVIDER_DEFAULT_MODEL: Record<ProviderName, string> = { openai: 'gpt-4o-mini', anthropic: 'claude-3-5-haiku-latest' };

export function defaultModelFor(provider: ProviderName, defaults: TaskPorts['defaults']): string {
  return provider === defaults.provider ? defaults.model : PROVIDER_DEFAULT_MODEL[provider];
}

/**
 * POST /tasks (docs/workflows.md, "Governed agent executions"): resolves the policy and the permissions strictly (any dropped
 * permission refuses the whole request, naming each), then queues the execution.
 */
export async function createTask(ports: TaskPorts, caller: Principal, input: TaskInput): Promise<Execution> {
  const policy = await ports.policies.get(input.compliance_policy);
  if (!policy) throw ValidationError.single(['body', 'compliance_policy'], `Unknown compliance policy '${input.compliance_policy}'.`);
  if (policy.max_budget_cents > 0 && input.budget_cents > policy.max_budget_cents) {
    throw ValidationError.single(
      ['body', 'budget_cents'],
      `Policy '${policy.name}' allows at most ${policy.max_budget_cents} cents.`,
      'less_than_equal',
    );
  }
  const { effective, dropped } = ports.resolvePermissions(policy, input.stage_role, input.permissions);
  if (dropped.length > 0) throw new PolicyDeniedError(`Requested permissions exceed the ceiling of policy '${policy.name}'`, dropped);
  const provider = input.provider ?? ports.defaults.provider;
  return ports.executions.create({
    owner_id: caller.user.id,
    task: input.task,
    policy: policyRef(policy),
    stage_role: input.stage_role,
    permissions: effective,
    dropped_permissions: [],
    budget_cents: input.budget_cents,
    provider,
    model: input.model ?? defaultModelFor(provider, ports.defaults),
    api_key: input.api_key,
    repo_root: input.repo_root ?? null,
    commit_sha: input.commit_sha ?? null,
  });
}
