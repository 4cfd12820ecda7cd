import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { policyRef } from '../../core/policies/policy-digest.js';
import { migrate } from '../../db/migrate.js';
import { certificateValues } from '../../db/stores/executions/execution-rows.js';
import { createExecutionStore, executionInsertValues } from '../../db/stores/executions/postgres-execution-store.js';
import { defaultPolicy } from '../agent/support/agent-harness.js';
import { insertOwner, newExecution } from '../executions/support/execution-fixtures.js';
import { reportStep } from '../executions/support/report-step.js';
import { migrateUpTo, useScratchDatabase } from './support/scratch-database.js';

describe('migration 034: tool-call certificates get a table of their own', () => {
  const scratch = useScratchDatabase('m034');
  let db: Knex;
  beforeAll(() => {
    db = scratch.db();
  });

  it('moves the certificates a run stored before it, which then read back unchanged, in order', async () => {
    await migrateUpTo(db, '033-delivery-outcomes');
    const policy = defaultPolicy();
    const secretKey = randomBytes(32);
    const id = randomUUID();
    await db('executions').insert(executionInsertValues(id, newExecution(await insertOwner(db), policyRef(policy)), secretKey));
    const steps = [reportStep(id, policy, 1, 'first'), reportStep(id, policy, 2, 'second')];
    // As the journal stored a step before: the call in tool_calls, its certificate in certificates.
    for (const [entry, , certificate] of steps) {
      await db('tool_calls').insert({ execution_id: id, ...entry, arguments: JSON.stringify(entry.arguments) });
      await db('certificates').insert(certificateValues(certificate!, id));
    }
    // A certificate whose tool call is missing is left where it is.
    const [, , orphan] = reportStep(id, policy, 3, 'orphan');
    await db('certificates').insert(certificateValues(orphan!, id));

    await migrate(db);

    const moved = await db('tool_call_certificates').where({ execution_id: id }).orderBy('seq');
    expect(moved.map((r: { seq: number; id: string }) => [r.seq, r.id])).toEqual(steps.map(([entry, , c]) => [entry.seq, c!.id]));
    expect((await db('certificates').where({ execution_id: id })).map((r: { id: string }) => r.id)).toEqual([orphan!.id]);
    const execution = (await createExecutionStore(db, secretKey).get(id))!;
    expect(execution.certificates).toEqual([...steps.map(([, , c]) => c), orphan]);
    expect(execution.tool_calls.map((c) => c.certificate_id)).toEqual(steps.map(([, , c]) => c!.id));
  });
});
