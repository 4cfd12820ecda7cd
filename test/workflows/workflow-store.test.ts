import { giveUpWorkflow } from '../../core/workflows/run-workflow-job.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { reviewedRelease } from './support/stage-model.js';

// No worker: the orchestration's transitions are driven by hand, as competing attempts would.
let t: TestApp;
let operator: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  operator = await t.user('OPERATOR');
});
afterAll(async () => {
  await t.close();
});

async function queued(): Promise<string> {
  const res = await t.request.post('/api/v1/workflows').set(operator.auth).send(reviewedRelease());
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('the workflow state machine', () => {
  it('starts a stage once, whatever number of attempts race for it', async () => {
    const id = await queued();
    const store = t.deps.workflows;
    expect(await store.start(id)).toBe(true);
    const started = await Promise.all(Array.from({ length: 8 }, () => store.startStage(id, 'review', [])));
    const ids = started.filter((e): e is string => e !== null);
    expect(ids).toHaveLength(1);
    expect(await t.database.db('executions').where({ workflow_id: id }).count({ n: '*' })).toEqual([{ n: 1 }]);
    const workflow = await store.get(id);
    expect(workflow!.stages[0]).toMatchObject({ status: 'running', execution_id: ids[0] });
    // A stage that already ended does not move again.
    expect(await store.transitionStage(id, 'review', { from: ['running'], to: 'completed' })).toBe(true);
    expect(await store.transitionStage(id, 'review', { from: ['running'], to: 'failed' })).toBe(false);
    expect(await store.startStage(id, 'review', [])).toBeNull();
  });

  it('never starts a stage of a workflow that is no longer running', async () => {
    const id = await queued();
    expect(await t.deps.workflows.startStage(id, 'review', [])).toBeNull(); // still queued: the job has not started it
    await t.deps.workflows.start(id);
    await t.deps.workflows.cancel(id);
    expect(await t.deps.workflows.start(id)).toBe(false);
    expect(await t.deps.workflows.startStage(id, 'review', [])).toBeNull();
  });

  it('gives up a workflow whose job used every attempt: running stage failed, the rest skipped', async () => {
    const id = await queued();
    await t.deps.workflows.start(id);
    const executionId = await t.deps.workflows.startStage(id, 'review', []);
    expect(await giveUpWorkflow(t.deps.workflows, id)).toBe(executionId);
    const workflow = await t.deps.workflows.get(id);
    expect(workflow!.status).toBe('failed');
    expect(workflow!.stages.map((s) => s.status)).toEqual(['failed', 'skipped', 'skipped']);
  });

  it('reads a workflow and its stages from one snapshot: never a failed workflow with its stage still running', async () => {
    const id = await queued();
    const store = t.deps.workflows;
    await store.start(id);
    await store.startStage(id, 'review', []);
    // A close that commits while a read is under way: the stages table is held until it commits,
    // so a read that fetched the workflow row first meets the stages only after the close.
    const close = await t.database.db.transaction();
    await close.raw('LOCK TABLE workflow_stages IN ACCESS EXCLUSIVE MODE');
    await close('workflow_stages').where({ workflow_id: id, stage_id: 'review' }).update({ status: 'failed' });
    await close('workflow_stages').where({ workflow_id: id, status: 'pending' }).update({ status: 'skipped' });
    await close('workflows').where({ id }).update({ status: 'failed' });
    const reading = store.get(id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await close.commit();
    const seen = await reading;
    const shown = [seen!.status, ...seen!.stages.map((s) => s.status)];
    expect([
      ['running', 'running', 'pending', 'pending'],
      ['failed', 'failed', 'skipped', 'skipped'],
    ]).toContainEqual(shown);
    expect((await store.get(id))!.status).toBe('failed');
  });
});
