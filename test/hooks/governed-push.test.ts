import { pushPayload } from '../support/github-deliveries.js';
import { decide } from '../support/release-api.js';
import { agentCommit } from '../github/support/agent-pull-requests.js';
import { useGatewayOnGitHub } from '../mcp/support/gateway-on-github.js';
import { claudePost, claudePre, decisionOf, hookPolicy, postHook } from './support/hook-fixture.js';

// docs/agent-hooks.md, "Governed pushes".
const INSTALLATION = 96;
const stack = useGatewayOnGitHub({ secret: 'governed-push-secret', installationId: INSTALLATION, gate: 'required_checks: [build]\n' });
let shas = 0;
const nextSha = () => (++shas).toString(16).padStart(40, 'e');

async function openSession(repo: string, branch: string) {
  const policy = await hookPolicy(stack.t);
  const res = await stack.t.request
    .post('/api/v1/agent-sessions')
    .set(stack.t.admin.auth)
    .send({ name: 'claude run', repo_root: repo, branch, servers: [], compliance_policy: policy });
  expect(res.status).toBe(201);
  return res.body as { id: string; token: string };
}

async function push(repo: string, branch: string, sha: string) {
  expect(await stack.send('push', pushPayload(repo, branch, [sha], INSTALLATION))).toEqual({ status: 'queued' });
}

async function governedBy(repo: string, number: number, head: string) {
  await stack.agentPullRequest(repo, number, head, agentCommit(head));
  const d = await decide(stack.t, repo, head);
  return { codes: d.blockers.map((b: { code: string }) => b.code) as string[], governedBy: d.authorship.commits[0].governed_by };
}

describe("a commit pushed by a coding agent's governed git push", () => {
  it('is governed by that session and names the call that pushed it; the check run says so', async () => {
    const repo = 'acme/hooks-push';
    stack.repository(repo);
    const head = nextSha();
    const session = await openSession(repo, 'copilot/fix-1');
    const hook = (body: unknown) => postHook(stack.t, 'claude-code', session.token, body).expect(200);
    const test = claudePre('Bash', { command: 'npm test' });
    await hook(test);
    await hook(claudePost(test, { stdout: 'ok' }));
    const pushing = claudePre('Bash', { command: 'git -C /work/acme-shop push origin HEAD:copilot/fix-1' });
    expect(decisionOf(await hook(pushing)).decision).toBe('allow');
    await push(repo, 'copilot/fix-1', head);
    await hook(claudePost(pushing, { stdout: '', stderr: 'To github.com:acme/hooks-push.git' }, 900));
    const { codes, governedBy: by } = await governedBy(repo, 1, head);
    expect(codes).toEqual([]);
    expect(by).toEqual({
      kind: 'agent_session',
      session_id: session.id,
      execution_id: session.id,
      call: { seq: 2, tool: 'Bash', command: 'git -C /work/acme-shop push origin HEAD:copilot/fix-1' },
    });
    const run = stack.gh.app.checkRunsOn(repo, head).at(-1);
    expect(run?.output.summary).toContain(`pushed during agent session ${session.id.replace(/-/g, '\\-')} by its call 2`);
  });

  it("a commit pushed outside any governed session of an agent's pull request still blocks with agent_change_ungoverned", async () => {
    const repo = 'acme/hooks-push-outside';
    stack.repository(repo);
    const head = nextSha();
    await push(repo, 'copilot/fix-2', head);
    const session = await openSession(repo, 'copilot/fix-2');
    const pushing = claudePre('Bash', { command: 'git push' });
    await postHook(stack.t, 'claude-code', session.token, pushing).expect(200);
    await postHook(stack.t, 'claude-code', session.token, claudePost(pushing, { stdout: 'Everything up-to-date' })).expect(200);
    const { codes, governedBy: by } = await governedBy(repo, 2, head);
    expect(codes).toEqual(['agent_change_ungoverned']);
    expect(by).toBeNull();
  });
});
