import { checkRunPayload, pullRequestPayload } from '../support/github-deliveries.js';
import { decide } from '../support/release-api.js';
import { codes, useAgentPullRequests } from './support/agent-pull-requests.js';

const { stack, send, nextSha, openPullRequest, buildPassed } = useAgentPullRequests(137);

/** `.github/shipgate.yml`: build always, e2e only for changes under src/. */
const E2E_FOR_SRC = 'required_checks:\n  - build\n  - {name: e2e, paths: ["src/**"]}\n';

let runIds = 137_000;

/** A person's pull request `number` on GitHub changing `paths`, announced by real deliveries; build passed on it. */
async function pullRequestChanging(repo: string, number: number, paths: string[]): Promise<string> {
  const head = nextSha();
  await openPullRequest(repo, number, head);
  const pr = stack.gh.app.pullRequest(repo, number)!;
  pr.files = paths.map((filename) => ({ filename }));
  await send('pull_request', pullRequestPayload('synchronize', { number, sha: head, ref: pr.head_ref }, repo));
  await buildPassed(repo, head);
  return head;
}

async function e2eConcluded(repo: string, sha: string, conclusion: string) {
  await send('check_run', checkRunPayload('completed', { id: runIds++, name: 'e2e', sha, conclusion }, repo));
}

describe('conditional checks through the App (docs/release-gate.md, "Conditional checks")', () => {
  it('a required check with paths [src/**] is not required for a docs-only pull request, and the decision says why', async () => {
    const repo = 'acme/conditional-docs';
    stack.repository(repo, E2E_FOR_SRC);
    const head = await pullRequestChanging(repo, 1, ['docs/guide.md', 'README.md']);

    const d = await decide(stack.t, repo, head);
    expect([d.decision, codes(d)]).toEqual(['SHIP', []]);
    expect(d.gate.required_checks).toEqual(['build', { name: 'e2e', paths: ['src/**'] }]);
    expect(d.explanation).toContainEqual(
      expect.objectContaining({
        policy: 'required_checks',
        satisfied: true,
        requirement: expect.stringContaining('Not required: the change touches no `src/**`.'),
      }),
    );
  });

  it('is required for a pull request touching src/, and a skipped run counts as passing by default', async () => {
    const repo = 'acme/conditional-src';
    stack.repository(repo, E2E_FOR_SRC);
    const head = await pullRequestChanging(repo, 2, ['docs/guide.md', 'src/parser.ts']);

    const missing = await decide(stack.t, repo, head);
    expect(missing.decision).toBe('NO_SHIP');
    expect(missing.blockers).toEqual([
      expect.objectContaining({
        code: 'required_check_missing',
        component: 'check:e2e',
        reason: "Required check 'e2e' has not run on this commit. Required: the change touches `src/**` (`src/parser.ts`).",
      }),
    ]);

    await e2eConcluded(repo, head, 'skipped');
    expect((await decide(stack.t, repo, head)).decision).toBe('SHIP');
  });

  it('with skipped_is_success: false, a skipped run blocks and the blocker says why', async () => {
    const repo = 'acme/conditional-strict';
    stack.repository(repo, `${E2E_FOR_SRC}skipped_is_success: false\n`);
    const head = await pullRequestChanging(repo, 3, ['src/parser.ts']);
    await e2eConcluded(repo, head, 'skipped');

    const d = await decide(stack.t, repo, head);
    expect(d.gate.skipped_is_success).toBe(false);
    expect(d.blockers).toEqual([
      expect.objectContaining({
        code: 'required_check_failed',
        component: 'check:e2e',
        reason: expect.stringContaining('does not count a skipped or neutral check as passing (skipped_is_success: false)'),
        waitable: false,
      }),
    ]);
    await e2eConcluded(repo, head, 'success');
    expect((await decide(stack.t, repo, head)).decision).toBe('SHIP');
  });

  it('a commit no pull request names needs the conditional check (its files are unknown)', async () => {
    const repo = 'acme/conditional-push';
    const head = stack.repository(repo, E2E_FOR_SRC);
    await pullRequestChanging(repo, 4, ['docs/guide.md']); // the App reads the gate file for the pull request
    await buildPassed(repo, head);

    const d = await decide(stack.t, repo, head);
    expect(d.blockers).toEqual([expect.objectContaining({ code: 'required_check_missing', component: 'check:e2e' })]);
    expect(d.explanation).toContainEqual(
      expect.objectContaining({
        satisfied: false,
        requirement: expect.stringContaining(
          'Required although limited to `src/**`: the files this change touches are unknown. No open pull request or merge group names this commit.',
        ),
      }),
    );
  });
});
