import { startFakeGitHub, type FakeGitHub } from '../../fakes/fake-github-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { appEnv, appPrivateKey, deliver, settle } from '../../support/github-deliveries.js';

export interface AppWithFakeGitHub {
  gh: FakeGitHub;
  /** shipgate with its worker, the GitHub App of `gh`. */
  t: TestApp;
  /** A repository with the gate file on its default branch and the App installed; answers its head SHA. */
  repository(repo: string, gate?: string): string;
  /** Delivers a webhook (202) to `app`, signed with its WEBHOOK_SECRET, and waits for the jobs it queued. */
  send(event: string, payload: unknown, app?: TestApp): Promise<{ status: string; reason?: string }>;
}

/**
 * The test file's shipgate as the GitHub App (installation `installationId`) of a fake GitHub,
 * webhook secret `secret`, started before the file's tests and closed after them.
 */
export function useAppWithFakeGitHub(options: { secret: string; installationId: number; gate: string }): AppWithFakeGitHub {
  const stack = {
    repository(repo: string, gate = options.gate) {
      stack.gh.app.installations.set(repo, options.installationId);
      return stack.gh.repos.commit(repo, { files: { '.github/shipgate.yml': gate, 'README.md': `${repo}\n` } });
    },
    async send(event: string, payload: unknown, app = stack.t) {
      const res = await deliver(app, event, payload, { secret: app.deps.config.github.webhookSecret ?? null });
      expect(res.status).toBe(202);
      await settle(app);
      return res.body as { status: string; reason?: string };
    },
  } as AppWithFakeGitHub;
  beforeAll(async () => {
    stack.gh = await startFakeGitHub();
    stack.t = await createTestApp(appEnv(stack.gh, options.secret, appPrivateKey()), { worker: true });
  });
  afterAll(async () => {
    await stack.t.close();
    await stack.gh.close();
  });
  return stack;
}
