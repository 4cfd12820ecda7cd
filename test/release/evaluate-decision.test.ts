import { BLOCKER_CODES } from '../../core/release/blocker.js';
import { evaluateDecision } from '../../core/release/evaluate-decision.js';
import { check, evidence, gate, hoursAgo, NOW, reviewedWorkflow, upload } from './support/release-fixtures.js';

const codes = (e: ReturnType<typeof evaluateDecision>) => e.blockers.map((b) => b.code);
const strict = gate({ required_checks: ['ci/test'], required_evidence: ['sbom'], require_reviewed_release: true });
const allGood = () => evidence([check('ci/test')], [upload('sbom')]);

describe('evaluateDecision', () => {
  it('ships when every requirement is met, with every requirement explained as satisfied', () => {
    const result = evaluateDecision(strict, allGood(), [reviewedWorkflow()], NOW);
    expect(result).toMatchObject({ decision: 'SHIP', blockers: [] });
    expect(result.explanation.map((r) => r.policy)).toEqual([
      'evidence',
      'required_checks',
      'required_evidence',
      'require_reviewed_release',
      'bound_workflows',
    ]);
    expect(result.explanation.every((r) => r.satisfied && r.remediation === null)).toBe(true);
  });

  it('is NO_SHIP if and only if there is a blocker, and every blocker has the documented shape', () => {
    const result = evaluateDecision(strict, evidence([check('ci/test', { conclusion: 'failure' })]), [], NOW);
    expect(result.decision).toBe('NO_SHIP');
    for (const b of result.blockers) {
      expect(BLOCKER_CODES).toContain(b.code);
      expect(b).toEqual({
        code: b.code,
        component: expect.any(String),
        reason: expect.any(String),
        remediation_suggestion: expect.any(String),
      });
    }
    expect(result.explanation.filter((r) => !r.satisfied).every((r) => typeof r.remediation === 'string')).toBe(true);
  });

  describe('no_evidence', () => {
    it('appears alone when nothing is recorded, while the explanation still lists every requirement', () => {
      const result = evaluateDecision(strict, evidence(), [], NOW);
      expect(result.blockers).toEqual([expect.objectContaining({ code: 'no_evidence', component: 'commit' })]);
      expect(result.explanation.filter((r) => !r.satisfied).map((r) => r.policy)).toEqual([
        'evidence',
        'required_checks',
        'required_evidence',
        'require_reviewed_release',
      ]);
    });

    it('blocks even a gate with no requirements at all', () => {
      const empty = gate({ require_reviewed_release: false });
      expect(codes(evaluateDecision(empty, evidence(), [], NOW))).toEqual(['no_evidence']);
      expect(evaluateDecision(empty, evidence([check('lint')]), [], NOW).decision).toBe('SHIP');
    });
  });

  describe('required checks', () => {
    const only = gate({ required_checks: ['ci/test'], require_reviewed_release: false });

    it('required_check_missing when the check never ran (another check does not count), cleared when it passes', () => {
      const missing = evaluateDecision(only, evidence([check('lint')]), [], NOW);
      expect(missing.blockers).toEqual([expect.objectContaining({ code: 'required_check_missing', component: 'check:ci/test' })]);
      expect(evaluateDecision(only, evidence([check('ci/test')]), [], NOW).decision).toBe('SHIP');
    });

    it.each(['queued', 'in_progress', 'waiting', 'requested', 'pending'])('required_check_pending while the check is %s', (status) => {
      const result = evaluateDecision(only, evidence([check('ci/test', { status, conclusion: null })]), [], NOW);
      expect(result.blockers).toEqual([expect.objectContaining({ code: 'required_check_pending', component: 'check:ci/test' })]);
      expect(result.blockers[0].reason).toContain(status);
    });

    it.each(['failure', 'cancelled', 'timed_out', 'action_required', 'stale', 'startup_failure'])(
      'required_check_failed when it concluded %s',
      (conclusion) => {
        const result = evaluateDecision(only, evidence([check('ci/test', { conclusion })]), [], NOW);
        expect(codes(result)).toEqual(['required_check_failed']);
        expect(result.blockers[0].reason).toContain(conclusion);
      },
    );

    it.each(['success', 'neutral', 'skipped'])('accepts the conclusion %s as passing', (conclusion) => {
      expect(evaluateDecision(only, evidence([check('ci/test', { conclusion })]), [], NOW).decision).toBe('SHIP');
    });

    it('runtime_evidence_stale when the passing run is older than evidence_max_age_seconds, cleared by a fresh run', () => {
      const aged = gate({ required_checks: ['ci/test'], require_reviewed_release: false, evidence_max_age_seconds: 3600 });
      const stale = evaluateDecision(aged, evidence([check('ci/test', { produced_at: hoursAgo(2) })]), [], NOW);
      expect(stale.blockers).toEqual([expect.objectContaining({ code: 'runtime_evidence_stale', component: 'check:ci/test' })]);
      expect(stale.blockers[0].reason).toContain('3600');
      expect(evaluateDecision(aged, evidence([check('ci/test', { produced_at: hoursAgo(0.5) })]), [], NOW).decision).toBe('SHIP');
    });

    it('words a stale blocker without the moving age, so polling a stale commit keeps one snapshot', () => {
      const aged = gate({ required_checks: ['ci/test'], require_reviewed_release: false, evidence_max_age_seconds: 3600 });
      const ci = evidence([check('ci/test', { produced_at: hoursAgo(2) })]);
      const later = new Date(NOW.getTime() + 3600_000);
      expect(evaluateDecision(aged, ci, [], later).blockers).toEqual(evaluateDecision(aged, ci, [], NOW).blockers);
    });

    it('reports a stale failure as failed, not stale', () => {
      const aged = gate({ required_checks: ['ci/test'], require_reviewed_release: false, evidence_max_age_seconds: 3600 });
      const result = evaluateDecision(aged, evidence([check('ci/test', { conclusion: 'failure', produced_at: hoursAgo(5) })]), [], NOW);
      expect(codes(result)).toEqual(['required_check_failed']);
    });
  });

  describe('required evidence', () => {
    const only = gate({ required_evidence: ['sbom'], require_reviewed_release: false });

    it('required_evidence_missing when not uploaded (a check run of that name does not count), cleared by an upload', () => {
      const missing = evaluateDecision(only, evidence([check('sbom')]), [], NOW);
      expect(missing.blockers).toEqual([expect.objectContaining({ code: 'required_evidence_missing', component: 'evidence:sbom' })]);
      expect(evaluateDecision(only, evidence([], [upload('sbom')]), [], NOW).decision).toBe('SHIP');
    });

    it('required_evidence_failed when recorded as failed, cleared when passed', () => {
      expect(codes(evaluateDecision(only, evidence([], [upload('sbom', { status: 'failed' })]), [], NOW))).toEqual([
        'required_evidence_failed',
      ]);
      expect(evaluateDecision(only, evidence([], [upload('sbom', { status: 'passed' })]), [], NOW).decision).toBe('SHIP');
    });

    it('runtime_evidence_stale when produced before evidence_max_age_seconds', () => {
      const result = evaluateDecision(only, evidence([], [upload('sbom', { produced_at: hoursAgo(24 * 8) })]), [], NOW);
      expect(result.blockers).toEqual([expect.objectContaining({ code: 'runtime_evidence_stale', component: 'evidence:sbom' })]);
      expect(evaluateDecision(only, evidence([], [upload('sbom', { produced_at: hoursAgo(24 * 6) })]), [], NOW).decision).toBe('SHIP');
    });
  });

  describe('bound workflows', () => {
    const reviewed = gate({ require_reviewed_release: true });
    const any = gate({ require_reviewed_release: false });
    const ci = evidence([check('ci/test')]);

    it('no_execution_evidence_bound_to_snapshot when the gate requires a reviewed release and nothing is bound', () => {
      expect(codes(evaluateDecision(reviewed, ci, [], NOW))).toEqual(['no_execution_evidence_bound_to_snapshot']);
      expect(evaluateDecision(reviewed, ci, [reviewedWorkflow()], NOW).decision).toBe('SHIP');
      expect(evaluateDecision(any, ci, [], NOW).decision).toBe('SHIP');
    });

    it('workflow_incomplete while a bound workflow runs, and when it failed or was cancelled', () => {
      for (const status of ['queued', 'running', 'failed', 'cancelled'] as const) {
        const w = reviewedWorkflow({ status });
        const result = evaluateDecision(reviewed, ci, [w], NOW);
        expect(result.blockers).toEqual([expect.objectContaining({ code: 'workflow_incomplete', component: `workflow:${w.workflow_id}` })]);
        expect(result.blockers[0].reason).toContain(status);
      }
    });

    it('release_not_admitted when a release stage was blocked, with its reasons', () => {
      const w = reviewedWorkflow({ status: 'failed', release: { admission: 'not_admitted', reasons: ['not_approved:review'] } });
      const result = evaluateDecision(any, ci, [w], NOW);
      expect(result.blockers).toEqual([expect.objectContaining({ code: 'release_not_admitted', component: `workflow:${w.workflow_id}` })]);
      expect(result.blockers[0].reason).toContain('not_approved:review');
    });

    it('release_not_admitted when the gate requires a reviewed release and the bound work has no release stage', () => {
      const standalone = reviewedWorkflow({ standalone: true, release: { admission: 'none', reasons: [] } });
      expect(evaluateDecision(reviewed, ci, [standalone], NOW).blockers).toEqual([
        expect.objectContaining({ code: 'release_not_admitted', component: 'workflows' }),
      ]);
      expect(evaluateDecision(any, ci, [standalone], NOW).decision).toBe('SHIP');
    });

    it('does not also claim a missing release while a bound workflow is still running', () => {
      const running = reviewedWorkflow({ status: 'running', release: { admission: 'none', reasons: [] } });
      expect(codes(evaluateDecision(reviewed, ci, [running], NOW))).toEqual(['workflow_incomplete']);
    });

    it('execution_non_compliant for each non-compliant execution, even under an admitted release', () => {
      const w = reviewedWorkflow();
      w.executions[1] = { ...w.executions[1], verdict: 'non_compliant' };
      const result = evaluateDecision(reviewed, ci, [w], NOW);
      expect(result.blockers).toEqual([
        expect.objectContaining({ code: 'execution_non_compliant', component: `execution:${w.executions[1].execution_id}` }),
      ]);
    });

    it('certificate_invalid when an execution certificate does not verify (none yet is not invalid)', () => {
      const w = reviewedWorkflow();
      w.executions[0] = { ...w.executions[0], certificate_valid: false };
      expect(codes(evaluateDecision(reviewed, ci, [w], NOW))).toEqual(['certificate_invalid']);
      w.executions[0] = { ...w.executions[0], certificate_valid: null };
      expect(evaluateDecision(reviewed, ci, [w], NOW).decision).toBe('SHIP');
    });

    it('counts bound workflows as evidence: no no_evidence when only a workflow is recorded', () => {
      expect(evaluateDecision(reviewed, evidence(), [reviewedWorkflow()], NOW).decision).toBe('SHIP');
    });
  });

  it('lists blockers distinctly and in a stable order across areas', () => {
    const w = reviewedWorkflow({ status: 'running' });
    const result = evaluateDecision(
      strict,
      evidence([check('ci/test', { status: 'in_progress', conclusion: null })], [upload('sbom', { status: 'failed' })]),
      [w],
      NOW,
    );
    expect(codes(result)).toEqual(['required_check_pending', 'required_evidence_failed', 'workflow_incomplete']);
    const keys = result.blockers.map((b) => `${b.code}/${b.component}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
