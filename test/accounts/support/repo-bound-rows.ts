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
