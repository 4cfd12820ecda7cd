import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { startFakeGitHub, type FakeGitHub } from '../fakes/fake-github-server.js';
import { startFakeLlm, type FakeLlm, type LlmRequest } from '../fakes/fake-llm-server.js';
import { toolAnswers } from '../executions/support/agent-replies.js';
import { waitFor } from '../executions/support/wait-for.js';
import { linkGitHub } from '../accounts/support/repo-access-stack.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { startReplica, type Replica } from '../support/second-replica.js';
import { registerAppFromStudio } from './support/register-app-from-studio.js';

jest.setTimeout(90_000);

// GitHub access is asked for when it is needed (docs/github-app.md, "Where the App's credentials come
// from"): an App registered from the studio is used by a worker started before it, and by a replica
// started after it, without a restart and without first acting on "no App".
const REPO = 'acme/tools';
const INSTALLATION = 41;

let gh: FakeGitHub;
let llm: FakeLlm;
let api: TestApp;
let worker: Replica;
let env: Record<string, string>;
let commit: string;
const closing: { close(): Promise<void> }[] = [];

/** The model reads README.md with repo_read_file, then answers with what the tool said. */
function readsTheReadme(request: LlmRequest) {
  if (toolAnswers(request) > 0) return { text: 'Read.' };
  return { toolCalls: [{ name: 'repo_read_file', arguments: JSON.stringify({ path: 'README.md' }) }] };
}

beforeAll(async () => {
  gh = await startFakeGitHub();
  llm = await startFakeLlm();
  llm.otherwise(readsTheReadme);
  // No App and no GITHUB_TOKEN: nothing can read a repository yet.
  env = {
    ...llm.env(),
    GHE_HOST: gh.host,
    GHE_PROTOCOL: 'http',
    SHIPGATE_PUBLIC_URL: 'https://gate.acme.example',
    SHIPGATE_SECRET_KEY: randomBytes(32).toString('base64'),
  };
  // The API on one replica; the jobs on another, a `shipgate worker` started before the registration.
  api = await createTestApp(env);
  closing.push(api);
  worker = await startReplica(api.database.url, env, { worker: true });
  closing.push(worker);
  gh.app.installations.set(REPO, INSTALLATION);
  commit = gh.repos.commit(REPO, { files: { 'README.md': 'the tools readme\n' } });
});
afterAll(async () => {
  for (const c of closing.reverse()) await c.close();
  await llm?.close();
  await gh?.close();
});

/** Queues a run bound to the repository's head that reads README.md, and waits for it to end. */
async function readmeRun() {
  const queued = await api.request
    .post('/api/v1/tasks')
    .set(api.admin.auth)
    .send({ task: 'Read the README.', repo_root: REPO, commit_sha: commit })
    .expect(201);
  return waitFor(
    async () => (await api.request.get(`/api/v1/executions/${queued.body.id}`).set(api.admin.auth)).body,
    (e) => ['completed', 'failed'].includes(e.status),
    30_000,
  );
}

describe('an App registered from the studio while shipgate runs', () => {
  it("is used by the repository tools of a worker started before it, with the App's installation token, without a restart", async () => {
    const before = await readmeRun();
    expect(before.tool_calls.map((c: { output: string }) => c.output)).toEqual([
      expect.stringContaining('no repository access is configured on this server'),
    ]);

    await registerAppFromStudio(api, gh);
    gh.requests.length = 0;
    // The worker replica checks the registration every few seconds; its next runs read with the App.
    const after = await waitFor(
      () => readmeRun(),
      (run) => run.tool_calls[0]?.output === 'the tools readme\n',
      30_000,
      500,
    );
    expect(after.status).toBe('completed');
    const reads = gh.requests.filter((r) => r.method === 'GET' && r.path === `/repos/${REPO}/contents/README.md`);
    expect(reads.map((r) => r.headers.authorization)).toContain(`token ghs_installation_${INSTALLATION}`);
  });

  it("decides a linked user's repository access with it on a replica started after it, from its first request", async () => {
    // Registered by the test above.
    expect((await api.request.get('/api/v1/github/app').set(api.admin.auth).expect(200)).body).toMatchObject({ source: 'registration' });
    const fresh = await startReplica(api.database.url, env);
    closing.push(fresh);
    const reader = await api.user('OPERATOR');
    await linkGitHub(api, gh, reader, 'tools-reader');
    gh.app.grant(REPO, 'tools-reader', 'read');
    // SHIPGATE_REPO_ACCESS defaults to `github` once an App is configured: GitHub's permission decides.
    const gate = await fresh.request.get(`/api/v1/releases/gates/${REPO}`).set(reader.auth);
    expect([gate.status, gate.body.detail]).toEqual([200, undefined]);
    expect(gh.requests.some((r) => r.path === `/repos/${REPO}/collaborators/tools-reader/permission`)).toBe(true);
  });
});
