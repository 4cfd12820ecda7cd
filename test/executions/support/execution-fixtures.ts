import type { Knex } from 'knex';
import type { NewExecution } from '../../../core/executions/execution-store.js';
import type { PolicyRef } from '../../../core/policies/policy.js';

/** A user row to own executions written straight through a store (no account routes involved). */
export async function insertOwner(db: Knex): Promise<string> {
  const [{ id }] = await db('users')
    .insert({ email: 'owner@example.com', name: 'O', role: 'OPERATOR', password_hash: 'x' })
    .returning('id');
  return id;
}

/** A worker-role execution with every permission on openai's gpt-4o-mini, as a store creates it without a route. */
export function newExecution(ownerId: string, policy: PolicyRef, overrides: Partial<NewExecution> = {}): NewExecution {
  return {
    owner_id: ownerId,
    task: 'Write two reports.',
    policy,
    stage_role: 'worker',
    permissions: ['*'],
    dropped_permissions: [],
    budget_cents: 1500,
    provider: 'openai',
    model: 'gpt-4o-mini',
    ...overrides,
  };
}
