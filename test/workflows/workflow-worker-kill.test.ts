import { jest } from '@jest/globals';
import { verifyPackage } from '../../core/certificates/verify-package.js';
import type { FakeReply, LlmRequest } from '../fakes/fake-llm-server.js';
import { useApiWithWorkerProcesses } from '../executions/support/api-with-worker-processes.js';
import { taskOf, toolAnswers } from '../executions/support/agent-replies.js';
import { waitFor } from '../executions/support/wait-for.js';
import { reviewedRelease, stageModel } from './support/stage-model.js';

jest.setTimeout(180_000);

// The API in this process only queues; the workflow runs in worker processes.
const app = useApiWithWorkerProcesses();

const get = async (id: string) => (await app.t.request.get(`/api/v1/workflows/${id}`).set(app.operator.auth)).body;
const requestsOf = (prefix: string) => app.llm.requests.filter((r) => taskOf(r).startsWith(prefix));

describe('a worker process killed mid-workflow (kill -9)', () => {
  it('leaves the workflow to another worker, which finishes it; every stage ran exactly once', async () => {
    const model = stageModel();
    let held = false;
    app.llm.otherwise((request: LlmRequest): FakeReply => {
      // The release stage's answer after its tool calls never arrives at the first worker: it dies waiting.
      if (taskOf(request).startsWith('Release') && toolAnswers(request) > 0 && !held) {
        held = true;
        return { text: 'never delivered', delayMs: 120_000 };
      }
      return model(request);
    });
    const first = await app.worker();
    const created = await app.t.request.post('/api/v1/workflows').set(app.operator.auth).send(reviewedRelease());
    expect(created.status).toBe(201);
    await waitFor(
      () => requestsOf('Release').length,
      (n) => n === 2,
      60_000,
    );
    const midway = await get(created.body.id);
    expect(midway.stages.map((s: { status: string }) => s.status)).toEqual(['completed', 'running', 'pending']);

    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const second = await app.worker();
    const done = await waitFor(
      () => get(created.body.id),
      (w) => !['queued', 'running'].includes(w.status),
      90_000,
      100,
    );
    expect(done.status).toBe('completed');
    expect(done.stages.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed', 'completed']);

    // One execution per stage, the one the stage names, each finished once across both workers.
    const executions = await app.t.database.db('executions').where({ workflow_id: created.body.id }).orderBy('created_at');
    expect(executions.map((e: { stage_id: string }) => e.stage_id)).toEqual(['review', 'release', 'announce']);
    expect(executions.map((e: { id: string }) => e.id)).toEqual(done.stages.map((s: { execution_id: string }) => s.execution_id));
    const finished = [...first.finished(), ...second.finished()];
    expect(finished.sort()).toEqual(executions.map((e: { id: string }) => e.id).sort());
    expect(first.finished()).toEqual([executions[0].id]);

    // The review was asked twice (tool turn, answer) and never again; the release resumed, not restarted.
    expect(requestsOf('Review')).toHaveLength(2);
    expect(requestsOf('Release')).toHaveLength(3);
    expect(requestsOf('Release')[1].aborted).toBe(true);
    expect(toolAnswers(requestsOf('Release')[2])).toBe(2);
    expect(requestsOf('Announce')).toHaveLength(1);
    const release = (await app.t.request.get(`/api/v1/executions/${executions[1].id}`).set(app.operator.auth)).body;
    expect(release.tool_calls.map((c: { seq: number; tool: string }) => [c.seq, c.tool])).toEqual([
      [1, 'read_upstream'],
      [2, 'record_release_notes'],
    ]);
    expect(release.upstream_execution_ids).toEqual([executions[0].id]);

    const pkg = (await app.t.request.get(`/api/v1/workflows/${created.body.id}/export`).set(app.operator.auth)).body;
    expect(verifyPackage(pkg, pkg.public_keys)).toMatchObject({ ok: true });
  });
});
