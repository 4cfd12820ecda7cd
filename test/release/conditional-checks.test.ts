import type { CommitAuthorship } from '../../core/release/agent-change-findings.js';
import type { AuthorshipRecord, PullRequestFacts } from '../../core/release/authorship.js';
import { isWaitable } from '../../core/release/blocker.js';
import { changePaths } from '../../core/release/change-paths.js';
import { evaluateDecision } from '../../core/release/evaluate-decision.js';
import type { ChangedFile, ChangedFilesFacts } from '../../core/release/pull-request-files.js';
import { requiredCheckFindings } from '../../core/release/required-check-findings.js';
import { check, evidence, gate, NOW } from './support/release-fixtures.js';

const HEAD = 'c'.repeat(40);

const file = (path: string, previous_path: string | null = null): ChangedFile => ({
  path,
  previous_path,
  status: previous_path ? 'renamed' : 'modified',
  additions: 1,
  deletions: 0,
});

function read(files: ChangedFile[]): ChangedFilesFacts {
  return { status: 'read', reason: null, total: files.length, files };
}

/** A person's pull request #9 at HEAD changing these files (as the `github_authorship` job stores them). */
function pullRequest(files: ChangedFilesFacts | undefined, status: AuthorshipRecord['status'] = 'read'): CommitAuthorship {
  const facts: PullRequestFacts = {
    number: 9,
    head_sha: HEAD,
    author: { login: 'alice', type: 'User' },
    assignees: [],
    commits: [],
    reviews: [],
    ...(files ? { files } : {}),
  };
  return { record: { number: 9, status, reason: null, facts: status === 'read' ? facts : null }, governedCommits: [] };
}

const e2eForSrc = gate({ required_checks: ['build', { name: 'e2e', paths: ['src/**'] }] });
const docsOnly = pullRequest(read([file('docs/guide.md'), file('README.md')]));
const touchingSrc = pullRequest(read([file('docs/guide.md'), file('src/app.ts')]));

function decide(g = e2eForSrc, authorship = docsOnly, runs = [check('build')]) {
  return evaluateDecision(g, evidence(runs), [], NOW, { sha: HEAD, authorship });
}

describe('conditional checks: a required check with paths (docs/release-gate.md, "Conditional checks")', () => {
  it('is not required for a pull request touching none of its paths, and the requirement says why', () => {
    const evaluation = decide();
    expect(evaluation.decision).toBe('SHIP');
    expect(evaluation.explanation).toContainEqual(
      expect.objectContaining({
        policy: 'required_checks',
        satisfied: true,
        requirement: expect.stringContaining(
          "Check run 'e2e' completed successfully within the last 604800 s. Not required: the change touches no `src/**`.",
        ),
      }),
    );
  });

  it('is required for a pull request touching one of them: missing, it blocks and names the file', () => {
    const evaluation = decide(e2eForSrc, touchingSrc);
    expect(evaluation.decision).toBe('NO_SHIP');
    expect(evaluation.blockers).toEqual([
      expect.objectContaining({
        code: 'required_check_missing',
        component: 'check:e2e',
        reason: "Required check 'e2e' has not run on this commit. Required: the change touches `src/**` (`src/app.ts`).",
      }),
    ]);
    expect(decide(e2eForSrc, touchingSrc, [check('build'), check('e2e')]).decision).toBe('SHIP');
  });

  it('a rename counts under both names: moving a file out of src/ touches src/', () => {
    const movedOut = pullRequest(read([file('lib/app.ts', 'src/app.ts')]));
    expect(decide(e2eForSrc, movedOut).blockers).toEqual([
      expect.objectContaining({ code: 'required_check_missing', component: 'check:e2e' }),
    ]);
  });

  it('globs are gitignore-style: a glob without a slash matches at any depth; several globs are any of them', () => {
    const anyTf = gate({ required_checks: [{ name: 'plan', paths: ['*.tf', 'infra/'] }] });
    expect(decide(anyTf, pullRequest(read([file('modules/net/main.tf')]))).decision).toBe('NO_SHIP');
    expect(decide(anyTf, pullRequest(read([file('infra/README.md')]))).decision).toBe('NO_SHIP');
    const none = decide(anyTf, pullRequest(read([file('main.tf.md'), file('docs/infra.md')])));
    expect(none.decision).toBe('SHIP');
    expect(none.explanation.map((r) => r.requirement)).toContainEqual(expect.stringContaining('touches no `*.tf` or `infra/`.'));
  });

  it('is required (fail closed) whenever the files are unknown, and the requirement says why', () => {
    const unknown: [string, CommitAuthorship, string][] = [
      ['no pull request', { record: null, governedCommits: [] }, 'No open pull request or merge group names this commit.'],
      ['not read yet', pullRequest(undefined, 'pending'), 'Pull request #9 is not read yet.'],
      ['read before files were read', pullRequest(undefined), 'The files of pull request #9 were not read.'],
      [
        'more files than GitHub lists',
        pullRequest({
          status: 'file_limit',
          reason: 'Pull request #9 changes 3500 files; GitHub lists only 3000.',
          total: 3500,
          files: [],
        }),
        'Pull request #9 changes 3500 files; GitHub lists only 3000.',
      ],
      [
        'files unreadable',
        pullRequest({ status: 'unreadable', reason: 'GitHub did not list the files of pull request #9: 502.', total: 0, files: [] }),
        'GitHub did not list the files of pull request #9: 502.',
      ],
    ];
    for (const [, authorship, why] of unknown) {
      const evaluation = decide(e2eForSrc, authorship);
      expect(evaluation.blockers).toContainEqual(expect.objectContaining({ code: 'required_check_missing', component: 'check:e2e' }));
      expect(evaluation.explanation).toContainEqual(
        expect.objectContaining({
          satisfied: false,
          requirement: expect.stringContaining(
            `Required although limited to \`src/**\`: the files this change touches are unknown. ${why}`,
          ),
        }),
      );
    }
  });

  it('with the files unknown, a passing run of the check still satisfies it', () => {
    expect(decide(e2eForSrc, pullRequest(undefined), [check('build'), check('e2e')]).blockers).toEqual([]);
  });

  it('a conditional check may be pinned to its App too', () => {
    const pinned = gate({ required_checks: [{ name: 'e2e', app: 'github-actions', paths: ['src/**'] }] });
    const runs = [check('e2e', { app: { id: 1, slug: 'evil-app' } })];
    expect(decide(pinned, touchingSrc, runs).blockers).toEqual([expect.objectContaining({ code: 'required_check_wrong_source' })]);
    expect(decide(pinned, docsOnly, runs).blockers).toEqual([]);
  });

  it('a plain check stays required on every change', () => {
    expect(decide(e2eForSrc, docsOnly, []).blockers).toEqual([expect.objectContaining({ code: 'no_evidence' })]);
    expect(decide(e2eForSrc, docsOnly, [check('lint')]).blockers).toEqual([
      expect.objectContaining({ code: 'required_check_missing', component: 'check:build' }),
    ]);
  });

  it('changePaths reads the paths from the stored facts, renames under both names', () => {
    expect(changePaths(pullRequest(read([file('a/new.ts', 'a/old.ts'), file('b.md')])))).toEqual({
      known: true,
      paths: ['a/new.ts', 'a/old.ts', 'b.md'],
    });
  });
});

describe('skipped_is_success', () => {
  const skipped = [check('build', { conclusion: 'skipped' })];
  const neutral = [check('build', { conclusion: 'neutral' })];

  it('by default a skipped or neutral check counts as passing, as in branch protection', () => {
    const g = gate({ required_checks: ['build'] });
    expect(g.skipped_is_success).toBe(true);
    expect(requiredCheckFindings(g, skipped, NOW).blockers).toEqual([]);
    expect(requiredCheckFindings(g, neutral, NOW).blockers).toEqual([]);
  });

  it('false: a skipped or neutral check blocks, and the blocker says why', () => {
    const g = gate({ required_checks: ['build'], skipped_is_success: false });
    const [blocked] = requiredCheckFindings(g, skipped, NOW).blockers;
    expect(blocked).toEqual(
      expect.objectContaining({
        code: 'required_check_failed',
        component: 'check:build',
        reason:
          "Required check 'build' concluded skipped; this gate does not count a skipped or neutral check as passing (skipped_is_success: false).",
      }),
    );
    expect(isWaitable(blocked)).toBe(false);
    expect(requiredCheckFindings(g, neutral, NOW).blockers).toEqual([expect.objectContaining({ code: 'required_check_failed' })]);
    expect(requiredCheckFindings(g, [check('build')], NOW).blockers).toEqual([]);
  });

  it('a conditional check that does not apply needs no run at all, whatever skipped_is_success says', () => {
    const strict = gate({ required_checks: [{ name: 'e2e', paths: ['src/**'] }], skipped_is_success: false });
    const runs = [check('e2e', { conclusion: 'skipped' })];
    expect(decide(strict, docsOnly, runs).decision).toBe('SHIP');
    expect(decide(strict, touchingSrc, runs).blockers).toEqual([expect.objectContaining({ code: 'required_check_failed' })]);
  });
});
