import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { policyRef } from '../../core/policies/policy-digest.js';
import { createKnex } from '../../db/create-knex.js';
import { migrate, migrationSource } from '../../db/migrate.js';
import { migrations } from '../../db/migrations/index.js';
import { certificateValues } from '../../db/stores/executions/execution-rows.js';
import { createExecutionStore, executionInsertValues } from '../../db/stores/executions/postgres-execution-store.js';
import { withDatabase } from '../../db/with-database.js';
import { defaultPolicy } from '../agent/support/agent-harness.js';
import { insertOwner, newExecution } from '../executions/support/execution-fixtures.js';
import { reportStep } from '../executions/support/report-step.js';
import { cloneNamePrefix } from '../support/test-database.js';

/** The migrations up to and including `last`, applied as db/migrate.ts applies them all. */
async function migrateUpTo(db: Knex, last: string): Promise<void> {
  const applied = migrations.slice(0, migrations.findIndex((m) => m.name === last) + 1);
  await db.migrate.latest({ migrationSource: migrationSource(applied) });
}

describe('migration 034: tool-call certificates get a table of their own', () => {
  const serverUrl = process.env.SHIPGATE_TEST_SERVER_URL!;
  const name = `${cloneNamePrefix(process.env.SHIPGATE_TEST_TEMPLATE!)}m034_${randomBytes(4).toString('hex')}`;
  let db: Knex;
  beforeAll(async () => {
    const admin = createKnex(serverUrl, 1);
    await admin.raw(`CREATE DATABASE ${name}`);
    await admin.destroy();
    db = createKnex(withDatabase(serverUrl, name), 2);
  });
  afterAll(async () => {
    await db.destroy();
    const admin = createKnex(serverUrl, 1);
    await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.destroy();
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
