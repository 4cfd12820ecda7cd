import { predicateOf } from '../agent/support/predicate-of.js';
import { reviewedRelease, stageModel } from './support/stage-model.js';
import { useWorkflowApp } from './support/workflow-app.js';

const app = useWorkflowApp();

type Stage = { id: string; status: string; execution_id: string | null; blocked_reasons: string[]; output_summary: string | null };

const execution = async (id: string) => (await app.t.request.get(`/api/v1/executions/${id}`).set(app.operator.auth)).body;
const statuses = (w: { stages: Stage[] }) => w.stages.map((s) => [s.id, s.status]);

describe('a reviewed-release workflow, end to end with the fake LLM', () => {
  it('admits the release after an approving compliant review and completes, binding the reviewer to the release', async () => {
    app.llm.otherwise(stageModel());
    const done = await app.runToEnd(reviewedRelease());
    expect(done.status).toBe('completed');
    expect(statuses(done)).toEqual([
      ['review', 'completed'],
      ['release', 'completed'],
      ['announce', 'completed'],
    ]);
    const [review, release, announce] = done.stages as Stage[];
    expect(release.output_summary).toBe('Released v1.2.0 with the reviewed notes.');
    expect(done.stages.every((s: Stage & { started_at: string; finished_at: string }) => s.started_at && s.finished_at)).toBe(true);

    const reviewer = await execution(review.execution_id!);
    const released = await execution(release.execution_id!);
    expect(reviewer).toMatchObject({ workflow_id: done.id, stage_id: 'review', verdict: 'compliant' });
    expect(released).toMatchObject({ workflow_id: done.id, stage_id: 'release', status: 'completed', verdict: 'compliant' });
    expect(released.upstream_execution_ids).toEqual([review.execution_id]);
    expect((await execution(announce.execution_id!)).upstream_execution_ids).toEqual([]);
    // The reviewer's certificate is the release's signed upstream: the lineage is signed.
    const reviewerCertificate = reviewer.certificates.find((c: { kind: string }) => c.kind === 'execution');
    const releaseCertificate = released.certificates.find((c: { kind: string }) => c.kind === 'execution');
    expect(predicateOf(releaseCertificate).upstream).toEqual([
      {
        name: `execution/${review.execution_id}`,
        uri: `urn:shipgate:execution:${review.execution_id}`,
        digest: { sha256: reviewerCertificate.digest },
      },
    ]);
    // read_upstream handed the release stage the approved review.
    const readUpstream = released.tool_calls.find((c: { tool: string }) => c.tool === 'read_upstream');
    expect(readUpstream.output).toContain('Read the change; tests cover it.');
  });

  it('blocks the release when the reviewer does not approve: not_approved, later stages skipped', async () => {
    app.llm.otherwise(stageModel({ approve: false }));
    const done = await app.runToEnd(reviewedRelease());
    expect(done.status).toBe('failed');
    expect(statuses(done)).toEqual([
      ['review', 'completed'],
      ['release', 'blocked'],
      ['announce', 'skipped'],
    ]);
    expect(done.stages[1]).toMatchObject({ blocked_reasons: ['not_approved:review'], execution_id: null });
    expect(done.stages[2].execution_id).toBeNull();
  });

  it('blocks the release when the reviewer approves and then retracts it in a second review', async () => {
    app.llm.otherwise(stageModel({ retracts: true }));
    const done = await app.runToEnd(reviewedRelease());
    expect(done.status).toBe('failed');
    expect(done.stages[1]).toMatchObject({ status: 'blocked', blocked_reasons: ['not_approved:review'], execution_id: null });
  });

  it('blocks the release when the reviewer is non-compliant: non_compliant', async () => {
    // Under sox a denied call is blocking: the reviewer approves but overreaches.
    app.llm.otherwise(stageModel({ reviewerOverreaches: true }));
    const done = await app.runToEnd(reviewedRelease({}, 'sox'));
    expect(done.status).toBe('failed');
    expect((await execution(done.stages[0].execution_id)).verdict).toBe('non_compliant');
    expect(statuses(done)).toEqual([
      ['review', 'completed'],
      ['release', 'blocked'],
      ['announce', 'skipped'],
    ]);
    expect(done.stages[1].blocked_reasons).toEqual(['non_compliant:review']);
  });

  it('fails the workflow when a stage fails, and skips the rest', async () => {
    app.llm.otherwise(stageModel({ failing: 'Review' }));
    const done = await app.runToEnd(reviewedRelease());
    expect(done.status).toBe('failed');
    expect(statuses(done)).toEqual([
      ['review', 'failed'],
      ['release', 'skipped'],
      ['announce', 'skipped'],
    ]);
  });

  it('shows a stage key override to nobody and erases it once the stage ended', async () => {
    app.llm.otherwise(stageModel());
    const key = 'sk-workflow-stage-key-123456';
    const body = reviewedRelease();
    (body.stages[2] as Record<string, unknown>).api_key = key;
    const done = await app.runToEnd(body);
    expect(done.status).toBe('completed');
    expect(app.llm.requests.some((r) => r.headers.authorization === `Bearer ${key}`)).toBe(true);
    expect((await execution(done.stages[2].execution_id)).api_key_override).toBe(true);
    const rows = await app.t.database.db('workflow_stages').where({ workflow_id: done.id });
    expect(rows.map((r: { api_key_ciphertext: string | null }) => r.api_key_ciphertext)).toEqual([null, null, null]);
    const executions = await app.t.database.db('executions').where({ workflow_id: done.id });
    expect(executions.every((e: { api_key_ciphertext: string | null }) => e.api_key_ciphertext === null)).toBe(true);
  });
});
