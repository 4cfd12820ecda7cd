import { builtInPolicy } from '../../core/policies/built-in-policies.js';
import { policyRef } from '../../core/policies/policy-digest.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { newExecution } from './support/execution-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('an execution record is read in one snapshot', () => {
  it('never shows a completed run without the artifact that was committed with its end', async () => {
    const execution = await t.deps.executions.create(newExecution(t.admin.id, policyRef(builtInPolicy('default')!)), { enqueue: false });
    // The run's end and its last artifact commit together, while a read is under way: the
    // artifacts table is held until that commit, so a read that fetched the execution row first
    // meets the artifacts only after it.
    const end = await t.database.db.transaction();
    await end.raw('LOCK TABLE artifacts IN ACCESS EXCLUSIVE MODE');
    await end('artifacts').insert({ execution_id: execution.id, seq: 1, kind: 'report', name: 'final', content: 'done', digest: 'd' });
    await end('executions').where({ id: execution.id }).update({ status: 'completed', finished_at: end.fn.now() });
    const reading = t.deps.executions.get(execution.id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await end.commit();
    const seen = (await reading)!;
    expect([
      ['queued', 0],
      ['completed', 1],
    ]).toContainEqual([seen.status, seen.artifacts.length]);
    const after = (await t.deps.executions.get(execution.id))!;
    expect([after.status, after.artifacts.length]).toEqual(['completed', 1]);
  });
});
