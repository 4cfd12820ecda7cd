import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/** A workflow row bound to a repository (no stages), as the workflow engine would leave one that is running. */
export async function insertWorkflow(db: Knex, fields: { owner_id: string; repo_root: string; commit_sha: string }): Promise<string> {
  const id = randomUUID();
  await db('workflows').insert({ id, name: 'bound', status: 'running', started_at: new Date(), ...fields });
  return id;
}

let deploymentIds = 9_000_000;

/** An answered deployment protection request (the deployment record GET /releases/deployments lists), based on a snapshot. */
export async function insertAnsweredDeployment(
  db: Knex,
  fields: { repo_root: string; commit_sha: string; snapshot_id: string },
): Promise<string> {
  const [row] = await db('deployment_requests')
    .insert({
      ...fields,
      environment: 'production',
      run_id: ++deploymentIds,
      deployment_id: deploymentIds,
      installation_id: 501,
      state: 'approved',
      decision: 'SHIP',
      comment: 'Approved by shipgate.',
      answered_at: new Date(),
    })
    .returning('id');
  return (row as { id: string }).id;
}

/** A running agent session bound to a repository, with no calls yet (only the checks before closing read it). */
export async function insertAgentSession(db: Knex, fields: { owner_id: string; repo_root: string }): Promise<string> {
  const id = randomUUID();
  await db('executions').insert({
    id,
    kind: 'agent_session',
    task: 'bound session',
    policy_name: 'default',
    policy_version: 1,
    policy_digest: '0'.repeat(64),
    budget_cents: 0,
    stage_role: 'worker',
    status: 'running',
    started_at: new Date(),
    ...fields,
  });
  await db('agent_sessions').insert({
    execution_id: id,
    token_hash: randomUUID(),
    servers: ['bound'],
    max_tool_calls: 10,
    expires_at: new Date(Date.now() + 3_600_000),
  });
  return id;
}
