import { recordCheckRun } from '../../core/release/record-evidence.js';
import { checkRunPayload, pullRequestPayload } from '../support/github-deliveries.js';
import { decide } from '../support/release-api.js';
import { useAppWithFakeGitHub } from './support/app-with-fake-github.js';

// A check run's creator sets its completed_at freely through the Checks API: shipgate dates it no later than
// its receipt (docs/release-gate.md, "Check runs dated in the future").
const ACTIONS = { appId: 15368, appSlug: 'github-actions' };
const EVIL = { appId: 999, appSlug: 'evil-app' };
const FUTURE = '2099-01-01T00:00:00Z';

const stack = useAppWithFakeGitHub({
  secret: 'future-secret',
  installationId: 92,
  gate: 'required_checks: [build]\nrequire_reviewed_release: false\n',
});
const codes = (d: { blockers: { code: string }[] }) => d.blockers.map((b) => b.code).sort();

let repos = 0;
async function pullRequestOn(gate: string) {
  const repo = `acme/future-${++repos}`;
  const sha = stack.repository(repo, gate);
  await stack.send('pull_request', pullRequestPayload('opened', { number: repos, sha }, repo));
  return { repo, sha };
}

function futureSuccess(repo: string, sha: string, id: number, app: { appId: number; appSlug: string }) {
  const payload = checkRunPayload('completed', { id, name: 'build', sha, ...app }, repo);
  payload.check_run.completed_at = FUTURE;
  return payload;
}

describe('a check run dated in the future', () => {
  it('a pinned build reported as success dated 2099 does not hide the later real failure of the same App', async () => {
    const { repo, sha } = await pullRequestOn('required_checks: [{name: build, app: github-actions}]\nrequire_reviewed_release: false\n');
    await stack.send('check_run', futureSuccess(repo, sha, 778001, ACTIONS));
    await new Promise((r) => setTimeout(r, 5));
    await stack.send(
      'check_run',
      checkRunPayload('completed', { id: 778002, name: 'build', sha, conclusion: 'failure', ...ACTIONS }, repo),
    );
    const d = await decide(stack.t, repo, sha);
    expect(d.decision).toBe('NO_SHIP');
    expect(codes(d)).toEqual(['required_check_failed']);
  });

  it('a plain required check: another App posts success dated 2099, then CI fails: NO_SHIP', async () => {
    const { repo, sha } = await pullRequestOn('required_checks: [build]\nevidence_max_age_seconds: 60\nrequire_reviewed_release: false\n');
    await stack.send('check_run', futureSuccess(repo, sha, 778003, EVIL));
    await new Promise((r) => setTimeout(r, 5));
    await stack.send(
      'check_run',
      checkRunPayload('completed', { id: 778004, name: 'build', sha, conclusion: 'failure', ...ACTIONS }, repo),
    );
    const d = await decide(stack.t, repo, sha);
    expect(d.decision).toBe('NO_SHIP');
    expect(codes(d)).toEqual(['required_check_failed']);
  });

  it('a success dated 2099 alone is recorded as completed when it was received, and ages from then', async () => {
    const { repo, sha } = await pullRequestOn('required_checks: [build]\nevidence_max_age_seconds: 60\nrequire_reviewed_release: false\n');
    const before = Date.now();
    await stack.send('check_run', futureSuccess(repo, sha, 778005, ACTIONS));
    const d = await decide(stack.t, repo, sha);
    expect(d.decision).toBe('SHIP');
    const [run] = d.provenance.check_runs as { produced_at: string }[];
    expect(Date.parse(run.produced_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(run.produced_at)).toBeLessThanOrEqual(Date.now());

    // The same kind of check run received two minutes ago is stale under evidence_max_age_seconds: 60.
    const old = await pullRequestOn('required_checks: [build]\nevidence_max_age_seconds: 60\nrequire_reviewed_release: false\n');
    const receivedAt = new Date(Date.now() - 120_000);
    await recordCheckRun(
      stack.t.deps.release.store,
      {
        repo_root: old.repo,
        commit_sha: old.sha,
        name: 'build',
        status: 'completed',
        conclusion: 'success',
        completed_at: FUTURE,
        app: { id: 15368, slug: 'github-actions' },
      },
      receivedAt,
    );
    const stale = await decide(stack.t, old.repo, old.sha);
    expect(stale.decision).toBe('NO_SHIP');
    expect(codes(stale)).toEqual(['runtime_evidence_stale']);
    expect(stale.provenance.check_runs).toEqual([expect.objectContaining({ name: 'build', produced_at: receivedAt.toISOString() })]);
  });
});
