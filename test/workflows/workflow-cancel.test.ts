import { waitFor } from '../executions/support/wait-for.js';
import { reviewedRelease, stageModel } from './support/stage-model.js';
import { useWorkflowApp } from './support/workflow-app.js';

const app = useWorkflowApp();

const cancel = (id: string) => app.t.request.delete(`/api/v1/workflows/${id}`).set(app.operator.auth);

describe('DELETE /workflows/{id}', () => {
  it('cancels a running workflow within 2 s: the provider request is aborted, pending stages cancelled', async () => {
    const model = stageModel();
    // The reviewer's model call hangs until the run is cancelled.
    app.llm.otherwise((request) =>
      JSON.stringify(request.body).includes('Review the change') ? { text: 'never', delayMs: 120_000 } : model(request),
    );
    const created = await app.t.request.post('/api/v1/workflows').set(app.operator.auth).send(reviewedRelease());
    await waitFor(
      () => app.llm.requests.length,
      (n) => n === 1,
      30_000,
    );
    const running = await app.get(created.body.id);
    expect(running.status).toBe('running');
    expect(running.stages[0].status).toBe('running');

    const startedAt = Date.now();
    const res = await cancel(created.body.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: created.body.id, status: 'cancelled', cancelled_stage_ids: ['review', 'release', 'announce'] });
    const aborted = await app.llm.whenAborted();
    expect(Date.now() - startedAt).toBeLessThan(2000);
    expect(aborted).toBe(app.llm.requests[0]);

    const after = await app.get(created.body.id);
    expect(after.status).toBe('cancelled');
    expect(after.stages.map((s: { status: string }) => s.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    const reviewer = await waitFor(
      async () => (await app.t.request.get(`/api/v1/executions/${after.stages[0].execution_id}`).set(app.operator.auth)).body,
      (e) => e.status === 'cancelled',
    );
    expect(reviewer.finished_at).not.toBeNull();

    // Again: 200, nothing more cancelled, nothing changed.
    const again = await cancel(created.body.id);
    expect([again.status, again.body]).toEqual([200, { id: created.body.id, status: 'cancelled', cancelled_stage_ids: [] }]);
    // Nothing ran after the cancel: no stage got an execution later.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await app.get(created.body.id)).toEqual(after);
    expect(app.llm.requests).toHaveLength(1);
  });

  it("cancels the workflow when its running stage's execution is cancelled directly", async () => {
    app.llm.otherwise((request) =>
      JSON.stringify(request.body).includes('Review the change') ? { text: 'never', delayMs: 120_000 } : stageModel()(request),
    );
    const created = await app.t.request.post('/api/v1/workflows').set(app.operator.auth).send(reviewedRelease());
    const running = await waitFor(
      () => app.get(created.body.id),
      (w) => w.stages[0].execution_id !== null,
      30_000,
    );
    const res = await app.t.request.delete(`/api/v1/executions/${running.stages[0].execution_id}`).set(app.operator.auth);
    expect(res.body.status).toBe('cancelled');
    const after = await waitFor(
      () => app.get(created.body.id),
      (w) => w.status !== 'running',
      10_000,
    );
    expect(after.status).toBe('cancelled');
    expect(after.stages.map((s: { status: string }) => s.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  });

  it('leaves a completed workflow as it is, answering 200', async () => {
    app.llm.otherwise(stageModel());
    const created = await app.t.request.post('/api/v1/workflows').set(app.operator.auth).send(reviewedRelease());
    const done = await waitFor(
      () => app.get(created.body.id),
      (w) => w.status === 'completed',
      60_000,
    );
    const res = await cancel(created.body.id);
    expect([res.status, res.body]).toEqual([200, { id: done.id, status: 'completed', cancelled_stage_ids: [] }]);
    expect(await app.get(created.body.id)).toEqual(done);
  });
});
