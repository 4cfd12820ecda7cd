import { listen, runAction } from '../action/support/run-action.js';
import { checkRunPayload, pullRequestPayload } from '../support/github-deliveries.js';
import { useAppWithFakeGitHub } from './support/app-with-fake-github.js';

// The GitHub App's check run and the Action judge the same decision by the one waitable rule
// (core/release/blocker.ts, read by the Action through each blocker's `waitable`): what time
// alone can clear makes both wait, a failure ends both at once.
const GATE = 'required_checks: [ci]\nrequired_evidence: [sbom]\nrequire_reviewed_release: false\n';
const REPO = 'acme/waiting';

const stack = useAppWithFakeGitHub({ secret: 'waiting-secret', installationId: 93, gate: GATE });
let server: { url: string; close(): Promise<void> };
let runIds = 31000;

beforeAll(async () => {
  server = await listen(stack.t.app);
  stack.repository(REPO);
});
afterAll(async () => {
  await server.close();
});

const ci = (sha: string, conclusion: string) =>
  stack.send('check_run', checkRunPayload('completed', { id: runIds++, name: 'ci', sha, conclusion }, REPO));

async function actionOn(sha: string) {
  const viewer = await stack.t.user('VIEWER');
  const inputs = { 'api-url': server.url, 'api-key': viewer.key, repository: REPO, 'commit-sha': sha };
  return runAction({ ...inputs, 'wait-timeout': '2', 'poll-interval': '1' });
}

describe('the check run and the Action agree on what time can clear', () => {
  it('nothing recorded yet: the check run is in progress and the Action waits', async () => {
    const sha = 'd'.repeat(40);
    await stack.send('pull_request', pullRequestPayload('opened', { number: 12, sha }, REPO));
    const [run] = stack.gh.app.checkRunsOn(REPO, sha);
    expect([run.status, run.conclusion, run.output.title]).toEqual(['in_progress', null, 'Waiting for check runs or evidence']);
    const action = await actionOn(sha);
    expect(action.log).toContain('NO_SHIP for now, waiting for: no_evidence (commit)');
    expect([action.code, action.outputs.decision]).toEqual([1, 'NO_SHIP']);
  });

  it('only the required evidence is missing: the check run is in progress and the Action waits', async () => {
    const sha = 'e'.repeat(40);
    await stack.send('pull_request', pullRequestPayload('opened', { number: 14, sha }, REPO));
    await ci(sha, 'success');
    const [run] = stack.gh.app.checkRunsOn(REPO, sha);
    expect([run.status, run.conclusion, run.output.title]).toEqual(['in_progress', null, 'Waiting for evidence sbom']);
    const action = await actionOn(sha);
    expect(JSON.parse(action.outputs.blockers)).toEqual([expect.objectContaining({ code: 'required_evidence_missing', waitable: true })]);
    expect(action.log).toContain('NO_SHIP for now, waiting for: required_evidence_missing (evidence:sbom)');
    expect(action.code).toBe(1);
  });

  it('a failed check: the check run fails and the Action stops at once', async () => {
    const sha = 'f'.repeat(40);
    await stack.send('pull_request', pullRequestPayload('opened', { number: 13, sha }, REPO));
    await ci(sha, 'failure');
    const [run] = stack.gh.app.checkRunsOn(REPO, sha);
    expect([run.status, run.conclusion]).toEqual(['completed', 'failure']);
    const action = await actionOn(sha);
    expect(JSON.parse(action.outputs.blockers)).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'required_check_failed', waitable: false })]),
    );
    expect(action.log).not.toContain('NO_SHIP for now');
    expect(action.code).toBe(1);
  });
});
