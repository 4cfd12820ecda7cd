import { checkRunPayload, pullRequestPayload } from '../support/github-deliveries.js';
import { decide } from '../support/release-api.js';
import { useAppWithFakeGitHub } from './support/app-with-fake-github.js';

// The gate file pins `build` to GitHub Actions (docs/release-gate.md, "Checks pinned to their source").
const GATE = 'required_checks:\n  - {name: build, app: github-actions}\nrequire_reviewed_release: false\n';
const ACTIONS = { appId: 15368, appSlug: 'github-actions' };
const EVIL = { appId: 999, appSlug: 'evil-app' };

const stack = useAppWithFakeGitHub({ secret: 'pinned-secret', installationId: 91, gate: GATE });

describe('a required check pinned to GitHub Actions, through signed webhook deliveries', () => {
  it('a passing build from another App leaves NO_SHIP naming both sources; the same check from GitHub Actions ships', async () => {
    const repo = 'acme/pinned';
    const sha = stack.repository(repo);
    // shipgate reports on the head of an open pull request.
    await stack.send('pull_request', pullRequestPayload('opened', { number: 5, sha }, repo));

    await stack.send('check_run', checkRunPayload('completed', { id: 31001, name: 'build', sha, ...EVIL }, repo));
    const forged = await decide(stack.t, repo, sha);
    expect(forged.decision).toBe('NO_SHIP');
    expect(forged.blockers).toEqual([
      expect.objectContaining({
        code: 'required_check_wrong_source',
        component: 'check:build',
        reason: '`build` was reported by `evil-app`, the gate expects `github-actions`.',
        waitable: false,
      }),
    ]);
    expect(forged.gate.required_checks).toEqual([{ name: 'build', app: 'github-actions' }]);
    expect(forged.provenance.check_runs).toEqual([expect.objectContaining({ name: 'build', app: { id: 999, slug: 'evil-app' } })]);
    const [blocked] = stack.gh.app.checkRunsOn(repo, sha);
    expect(blocked.conclusion).toBe('failure');
    // Names and sources are quoted as text, in no code span (docs/github-app.md, "Quoting outside text").
    expect(blocked.output.summary).toContain('\\`build\\` was reported by \\`evil\\-app\\`, the gate expects \\`github\\-actions\\`\\.');
    expect(blocked.output.summary).toContain('- build (only github\\-actions): not reported by that source');

    await stack.send('check_run', checkRunPayload('completed', { id: 31002, name: 'build', sha, ...ACTIONS }, repo));
    const real = await decide(stack.t, repo, sha);
    expect([real.decision, real.blockers]).toEqual(['SHIP', []]);
    expect(real.explanation).toContainEqual(
      expect.objectContaining({
        policy: 'required_checks',
        satisfied: true,
        requirement: expect.stringContaining('reported by `github-actions`'),
      }),
    );
    expect(real.provenance.check_runs.map((c: { app: unknown }) => c.app)).toEqual(
      expect.arrayContaining([
        { id: 15368, slug: 'github-actions' },
        { id: 999, slug: 'evil-app' },
      ]),
    );
    const [shipped] = stack.gh.app.checkRunsOn(repo, sha);
    expect(shipped.conclusion).toBe('success');
    expect(shipped.output.summary).toContain('- build (only github\\-actions): success, reported by github\\-actions');
  });

  it('a later build from another App does not displace GitHub Actions’ own', async () => {
    const repo = 'acme/pinned-later';
    const sha = stack.repository(repo);
    await stack.send('pull_request', pullRequestPayload('opened', { number: 6, sha }, repo));
    await stack.send('check_run', checkRunPayload('completed', { id: 32001, name: 'build', sha, ...ACTIONS }, repo));
    await stack.send('check_run', checkRunPayload('completed', { id: 32002, name: 'build', sha, conclusion: 'failure', ...EVIL }, repo));
    expect((await decide(stack.t, repo, sha)).decision).toBe('SHIP');
  });
});
