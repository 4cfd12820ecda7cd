import { decide, putGate, sha } from '../support/release-api.js';
import { reviewedRelease, stageModel } from './support/stage-model.js';
import { useWorkflowApp } from './support/workflow-app.js';

const app = useWorkflowApp();
const repo = 'acme/gated';

const runBound = (commit: string) =>
  app.runToEnd(reviewedRelease({ repo_root: `https://github.com/Acme/Gated`, commit_sha: commit.toUpperCase() }));
const codes = (decision: { blockers: { code: string }[] }) => decision.blockers.map((b) => b.code);

describe('the release gate sees workflows bound to a commit (a gate with require_reviewed_release)', () => {
  beforeAll(async () => {
    await putGate(app.t, repo, { require_reviewed_release: true });
  });

  it('a completed reviewed release turns the decision from NO_SHIP to SHIP', async () => {
    const commit = sha('reviewed-release');
    const before = await decide(app.t, repo, commit);
    expect(before).toMatchObject({ decision: 'NO_SHIP', gate: { source: 'api', require_reviewed_release: true } });

    app.llm.otherwise(stageModel());
    const workflow = await runBound(commit);
    expect(workflow).toMatchObject({ status: 'completed', repo_root: repo, commit_sha: commit });
    const after = await decide(app.t, repo, commit);
    expect(after).toMatchObject({ decision: 'SHIP', blockers: [] });
    expect(after.snapshot_id).not.toBe(before.snapshot_id);
    expect(after.provenance.workflows).toEqual([
      expect.objectContaining({
        workflow_id: workflow.id,
        standalone: false,
        status: 'completed',
        release: { admission: 'admitted', reasons: [] },
        stages: [
          expect.objectContaining({ stage_id: 'review', status: 'completed' }),
          expect.objectContaining({ stage_id: 'release', status: 'completed' }),
          expect.objectContaining({ stage_id: 'announce', status: 'completed' }),
        ],
      }),
    ]);
    expect(after.explanation).toContainEqual(expect.objectContaining({ policy: 'require_reviewed_release', satisfied: true }));
  });

  it('a blocked release keeps it NO_SHIP with a blocker naming the stage', async () => {
    const commit = sha('blocked-release');
    app.llm.otherwise(stageModel({ approve: false }));
    const workflow = await runBound(commit);
    expect(workflow.status).toBe('failed');
    const decision = await decide(app.t, repo, commit);
    expect(decision.decision).toBe('NO_SHIP');
    expect(codes(decision)).toContain('release_not_admitted');
    const blocker = decision.blockers.find((b: { component: string }) => b.component === `workflow:${workflow.id}`);
    expect(blocker).toMatchObject({ code: 'release_not_admitted' });
    expect(blocker.reason).toContain('release stage release was not admitted (not_approved:review)');
  });

  it('a workflow failed before its release names the failed stage (workflow_incomplete)', async () => {
    const commit = sha('failed-review');
    app.llm.otherwise(stageModel({ failing: 'Review' }));
    const workflow = await runBound(commit);
    const decision = await decide(app.t, repo, commit);
    expect(decision.decision).toBe('NO_SHIP');
    const blocker = decision.blockers.find((b: { component: string }) => b.component === `workflow:${workflow.id}`);
    expect(blocker).toMatchObject({ code: 'workflow_incomplete' });
    expect(blocker.reason).toContain('stage review is failed');
  });
});
