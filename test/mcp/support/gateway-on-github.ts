import http from 'node:http';
import { startFakeGitHub, type FakeGitHub } from '../../fakes/fake-github-server.js';
import type { FakePullCommit } from '../../fakes/fake-github-people-routes.js';
import { appEnv, appPrivateKey, checkRunPayload, deliver, pullRequestPayload, settle } from '../../support/github-deliveries.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { freePort, startEverythingUpstream, type EverythingUpstream } from './everything-upstream.js';

export interface GatewayOnGitHub {
  gh: FakeGitHub;
  /** shipgate with its worker, listening at its SHIPGATE_PUBLIC_URL: the GitHub App of `gh` and the MCP gateway. */
  t: TestApp;
  upstream: EverythingUpstream;
  /** A repository with the gate file on its default branch and the App installed. */
  repository(repo: string): void;
  /** Delivers a signed webhook (202) and waits for the jobs it queued. */
  send(event: string, payload: unknown): Promise<{ status: string; reason?: string }>;
  /** An agent's pull request opened on GitHub (its only commit `head`, by Copilot), approved by carol (a writer) on GitHub, its build passed. */
  agentPullRequest(repo: string, number: number, head: string, commit: FakePullCommit): Promise<void>;
}

/**
 * The test file's shipgate as both the GitHub App (installation `installationId`, gate `gate`) of
 * a fake GitHub and the MCP gateway in front of a real server-everything registered as
 * `everything`; started before the file's tests and closed after them.
 */
export function useGatewayOnGitHub(options: { secret: string; installationId: number; gate: string }): GatewayOnGitHub {
  let server: http.Server;
  let runIds = 71000;
  const stack = {
    repository(repo: string) {
      stack.gh.app.installations.set(repo, options.installationId);
      stack.gh.repos.commit(repo, { files: { '.github/shipgate.yml': options.gate, 'README.md': `${repo}\n` } });
    },
    async send(event: string, payload: unknown) {
      const res = await deliver(stack.t, event, payload, { secret: options.secret });
      expect(res.status).toBe(202);
      await settle(stack.t);
      return res.body as { status: string; reason?: string };
    },
    async agentPullRequest(repo: string, number: number, head: string, commit: FakePullCommit) {
      const ref = `copilot/fix-${number}`;
      stack.gh.app.setPullRequest(repo, {
        number,
        head_sha: head,
        head_ref: ref,
        base_ref: 'main',
        state: 'open',
        author: { login: 'Copilot', type: 'Bot' },
        assignees: ['alice'],
        commits: [commit],
        reviews: [{ user: 'carol', state: 'APPROVED', commit_id: head }],
      });
      const opened = pullRequestPayload('opened', { number, sha: head, ref }, repo);
      opened.pull_request.user = { ...opened.pull_request.user, login: 'Copilot', type: 'Bot' };
      opened.installation = { ...opened.installation, id: options.installationId };
      expect(await stack.send('pull_request', opened)).toEqual({ status: 'queued' });
      const build = checkRunPayload('completed', { id: runIds++, name: 'build', sha: head }, repo);
      build.installation = { ...build.installation, id: options.installationId };
      await stack.send('check_run', build);
    },
  } as GatewayOnGitHub;
  beforeAll(async () => {
    stack.gh = await startFakeGitHub();
    stack.gh.app.permissions.set('carol', 'write');
    stack.upstream = await startEverythingUpstream();
    const port = await freePort();
    stack.t = await createTestApp(
      { ...appEnv(stack.gh, options.secret, appPrivateKey()), SHIPGATE_PUBLIC_URL: `http://127.0.0.1:${port}` },
      { worker: true },
    );
    server = http.createServer(stack.t.app.callback());
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const registered = await stack.t.request
      .post('/api/v1/mcp/servers')
      .set(stack.t.admin.auth)
      .send({ name: 'everything', url: stack.upstream.url });
    if (registered.status !== 201) throw new Error(`registering the upstream failed: ${registered.status} ${registered.text}`);
  }, 60_000);
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await stack.t?.close();
    await stack.upstream?.stop();
    await stack.gh?.close();
  });
  return stack;
}
