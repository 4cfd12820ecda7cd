import { isWaitable } from '../../core/release/blocker.js';
import { requiredCheckFindings } from '../../core/release/required-check-findings.js';
import { check, gate, hoursAgo, NOW } from './support/release-fixtures.js';

const ACTIONS = { id: 15368, slug: 'github-actions' };
const EVIL = { id: 999, slug: 'evil-app' };
const pinned = gate({ required_checks: [{ name: 'build', app: 'github-actions' }] });

describe('required checks pinned to their source (docs/release-gate.md, "Checks pinned to their source")', () => {
  it('a passing check of that name from another App does not count, and the blocker names both sources', () => {
    const { blockers, requirements } = requiredCheckFindings(pinned, [check('build', { app: EVIL })], NOW);
    expect(blockers).toEqual([
      expect.objectContaining({
        code: 'required_check_wrong_source',
        component: 'check:build',
        reason: '`build` was reported by `evil-app`, the gate expects `github-actions`.',
      }),
    ]);
    expect(isWaitable(blockers[0])).toBe(false);
    expect(requirements).toEqual([
      expect.objectContaining({ satisfied: false, requirement: expect.stringContaining("Check run 'build' reported by `github-actions`") }),
    ]);
  });

  it('the same check from GitHub Actions satisfies it, matched by slug or by numeric id', () => {
    expect(requiredCheckFindings(pinned, [check('build', { app: ACTIONS })], NOW).blockers).toEqual([]);
    const byId = gate({ required_checks: [{ name: 'build', app: 15368 }] });
    expect(requiredCheckFindings(byId, [check('build', { app: { id: 15368, slug: null } })], NOW).blockers).toEqual([]);
    expect(requiredCheckFindings(pinned, [check('build', { app: { id: 15368, slug: null } })], NOW).blockers).toHaveLength(1);
  });

  it("a later check from another App neither hides nor replaces the pinned App's own", () => {
    const runs = [
      check('build', { app: ACTIONS, produced_at: hoursAgo(2) }),
      check('build', { app: EVIL, conclusion: 'failure', produced_at: hoursAgo(1) }),
    ];
    expect(requiredCheckFindings(pinned, runs, NOW).blockers).toEqual([]);
    const failing = [check('build', { app: ACTIONS, conclusion: 'failure', produced_at: hoursAgo(2) }), check('build', { app: EVIL })];
    expect(requiredCheckFindings(pinned, failing, NOW).blockers).toEqual([
      expect.objectContaining({
        code: 'required_check_failed',
        reason: "Required check 'build' reported by `github-actions` concluded failure.",
      }),
    ]);
  });

  it('a check recorded without its App never satisfies a pinned entry; a plain name keeps accepting any source', () => {
    const [unknown] = requiredCheckFindings(pinned, [check('build')], NOW).blockers;
    expect(unknown.reason).toBe('`build` was reported by a source GitHub did not name, the gate expects `github-actions`.');
    const plain = gate({ required_checks: ['build'] });
    expect(requiredCheckFindings(plain, [check('build', { app: EVIL })], NOW).blockers).toEqual([]);
    expect(requiredCheckFindings(plain, [check('build')], NOW).blockers).toEqual([]);
  });

  it('nothing of that name at all is still missing (waitable)', () => {
    const [missing] = requiredCheckFindings(pinned, [check('lint', { app: ACTIONS })], NOW).blockers;
    expect(missing.code).toBe('required_check_missing');
    expect(isWaitable(missing)).toBe(true);
  });
});
