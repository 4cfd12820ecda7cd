import { randomUUID } from 'node:crypto';
import type { Principal } from '../accounts/user.js';
import type { ProviderName } from '../agent/provider.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { defaultModelFor, type TaskPorts } from '../executions/create-task.js';
import { policyRef } from '../policies/policy-digest.js';
import type { StageRole } from '../policies/policy.js';
import type { NewWorkflowStage, Workflow } from './workflow.js';
import type { WorkflowStore } from './workflow-store.js';

export interface WorkflowStageInput {
  id?: string;
  name: string;
  task: string;
  compliance_policy: string;
  budget_cents: number;
  stage_role: StageRole;
  provider?: ProviderName;
  model?: string;
  api_key?: string;
  permissions?: string[];
  upstream_stage_ids?: string[];
}

export interface WorkflowInput {
  name: string;
  description?: string;
  stages: WorkflowStageInput[];
  repo_root?: string;
  commit_sha?: string;
}

export type WorkflowPorts = Omit<TaskPorts, 'executions'> & { workflows: Pick<WorkflowStore, 'create'> };

async function planStage(ports: WorkflowPorts, stage: WorkflowStageInput, i: number, issues: ValidationIssue[]) {
  const at = (field: string) => ['body', 'stages', i, field];
  const policy = await ports.policies.get(stage.compliance_policy);
  if (!policy) {
    issues.push({ loc: at('compliance_policy'), msg: `Unknown compliance policy '${stage.compliance_policy}'.`, type: 'value_error' });
    return null;
  }
  if (policy.max_budget_cents > 0 && stage.budget_cents > policy.max_budget_cents) {
    issues.push({
      loc: at('budget_cents'),
      msg: `Policy '${policy.name}' allows at most ${policy.max_budget_cents} cents.`,
      type: 'less_than_equal',
    });
    return null;
  }
  // Lenient, unlike POST /tasks: the stage holds what is left and shows what was dropped.
  const { effective, dropped } = ports.resolvePermissions(policy, stage.stage_role, stage.permissions);
  const provider = stage.provider ?? ports.defaults.provider;
  const planned: NewWorkflowStage = {
    id: stage.id ?? randomUUID(),
    name: stage.name,
    task: stage.task,
    stage_role: stage.stage_role,
    policy: policyRef(policy),
    budget_cents: stage.budget_cents,
    provider,
    model: stage.model ?? defaultModelFor(provider, ports.defaults),
    api_key: stage.api_key,
    permissions: effective,
    dropped_permissions: dropped,
    upstream_stage_ids: stage.upstream_stage_ids ?? [],
  };
  return planned;
}

/**
 * POST /workflows: resolves every stage (policy, permissions, provider, model) and queues the
 * workflow. The request's shape and the links between stages are checked before this
 * (checkStageGraph); what needs the policy store is checked here, every stage at once.
 */
export async function createWorkflow(ports: WorkflowPorts, caller: Principal, input: WorkflowInput): Promise<Workflow> {
  const issues: ValidationIssue[] = [];
  const stages: (NewWorkflowStage | null)[] = [];
  for (const [i, stage] of input.stages.entries()) stages.push(await planStage(ports, stage, i, issues));
  if (issues.length > 0) throw new ValidationError(issues);
  return ports.workflows.create({
    owner_id: caller.user.id,
    name: input.name,
    description: input.description ?? null,
    repo_root: input.repo_root ?? null,
    commit_sha: input.commit_sha ?? null,
    stages: stages as NewWorkflowStage[],
  });
}
