import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { TestApp } from './test-app.js';
import { fakeGitHubAt, type FakeGitHub } from '../fakes/fake-github-server.js';

const require = createRequire(import.meta.url);
const examples = require('@octokit/webhooks-examples/api.github.com/index.json') as { name: string; examples: Record<string, unknown>[] }[];

type Payload = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** GitHub's signature: sha256= and the hex HMAC-SHA256 of the raw body. */
export function signature(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * A real payload from @octokit/webhooks-examples (deep copy) for `event`.`action`, moved to `repo`,
 * with the `installation.id` every App delivery carries (the examples lack it).
 */
export function examplePayload(event: string, action: string, repo = 'acme/app', installationId = 77): Payload {
  const found = examples.find((e) => e.name === event)?.examples.find((x) => x.action === action);
  if (!found) throw new Error(`no example for ${event}.${action}`);
  const payload = structuredClone(found) as Payload;
  const [owner, name] = repo.split('/');
  payload.repository = { ...payload.repository, name, full_name: repo, owner: { ...payload.repository.owner, login: owner } };
  payload.installation = { id: installationId, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNzc=' };
  return payload;
}

export function pullRequestPayload(
  action: string,
  pr: { number: number; sha: string; ref?: string; base?: string; updatedAt?: string },
  repo = 'acme/app',
) {
  const payload = examplePayload('pull_request', action === 'synchronize' ? 'synchronize' : action, repo);
  payload.number = pr.number;
  payload.pull_request = {
    ...payload.pull_request,
    number: pr.number,
    state: action === 'closed' ? 'closed' : 'open',
    updated_at: pr.updatedAt ?? new Date().toISOString(),
    head: { ...payload.pull_request.head, sha: pr.sha, ref: pr.ref ?? `feature-${pr.number}` },
    base: { ...payload.pull_request.base, ref: pr.base ?? 'main' },
  };
  return payload;
}

export function checkRunPayload(
  action: 'created' | 'completed' | 'rerequested',
  run: { id: number; name: string; sha: string; status?: string; conclusion?: string | null; appId?: number; appSlug?: string },
  repo = 'acme/app',
) {
  const payload = examplePayload('check_run', action === 'created' ? 'created' : action, repo);
  payload.check_run = {
    ...payload.check_run,
    id: run.id,
    name: run.name,
    head_sha: run.sha,
    status: run.status ?? (action === 'completed' ? 'completed' : 'in_progress'),
    conclusion: run.conclusion ?? (action === 'completed' ? 'success' : null),
    started_at: new Date(Date.now() - 60_000).toISOString(),
    completed_at: action === 'completed' ? new Date().toISOString() : null,
    app: { ...payload.check_run.app, id: run.appId ?? 1, slug: run.appSlug ?? payload.check_run.app.slug },
    pull_requests: [],
  };
  return payload;
}

/**
 * A real `push` payload (@octokit/webhooks-examples has no action for it) moved to `repo`: `shas`
 * pushed to `branch`, the last one its new head. The commits keep the example's author and date.
 */
export function pushPayload(repo: string, branch: string, shas: string[], installationId = 77) {
  const found = examples.find((e) => e.name === 'push')?.examples.find((x) => String(x.ref).startsWith('refs/heads/') && x.installation);
  if (!found) throw new Error('no example of a push to a branch');
  const payload = structuredClone(found) as Payload;
  const [owner, name] = repo.split('/');
  payload.repository = { ...payload.repository, name, full_name: repo, owner: { ...payload.repository.owner, login: owner } };
  payload.installation = { ...payload.installation, id: installationId };
  const head = shas[shas.length - 1];
  const commit = (id: string) => ({ ...payload.head_commit, id, url: `https://github.com/${repo}/commit/${id}` });
  payload.ref = `refs/heads/${branch}`;
  payload.after = head;
  payload.commits = shas.map(commit);
  payload.head_commit = commit(head);
  return payload;
}

/** Sends one delivery to the running server, signed with `secret` unless it is null. */
export async function deliver(t: TestApp, event: string, payload: unknown, options: { secret?: string | null; id?: string } = {}) {
  const body = JSON.stringify(payload);
  // GitHub has the pull request a delivery describes.
  fakeGitHubAt(t.deps.config.github.gheHost)?.app.learnPullRequest(event, payload);
  const request = t.request
    .post('/api/v1/releases/github-webhook')
    .set('Content-Type', 'application/json')
    .set('X-GitHub-Event', event)
    .set('X-GitHub-Delivery', options.id ?? randomUUID());
  if (options.secret) request.set('X-Hub-Signature-256', signature(body, options.secret));
  return request.send(body);
}

/** Sends one delivery signed with `secret` to a shipgate running at `url` (its own process); its status and JSON body. */
export async function deliverTo(url: string, event: string, payload: unknown, secret: string, id: string = randomUUID()) {
  const body = JSON.stringify(payload);
  const res = await fetch(`${url}/api/v1/releases/github-webhook`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-GitHub-Event': event,
      'X-GitHub-Delivery': id,
      'X-Hub-Signature-256': signature(body, secret),
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** Waits until no GitHub job is left to run (queued, due within `horizonMs`, or running); returns errors of failed ones. */
export async function settle(t: TestApp, { timeoutMs = 20_000, horizonMs = 60_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await t.database.db.raw(
      `SELECT count(*)::int AS n, max(last_error) AS error FROM graphile_worker.jobs
      WHERE task_identifier LIKE 'github_%' AND attempts < max_attempts AND run_at < now() + (? || ' milliseconds')::interval`,
      [String(horizonMs)],
    );
    if (rows[0].n === 0) return;
    if (Date.now() > deadline) throw new Error(`GitHub jobs still pending after ${timeoutMs} ms (last error: ${rows[0].error})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The writes shipgate made to GitHub (comments and check runs; token requests are not writes). */
export function writes(gh: FakeGitHub) {
  return gh.requests
    .filter((r) => (r.method === 'POST' || r.method === 'PATCH') && !r.path.startsWith('/app/'))
    .map((r) => `${r.method} ${r.path}`);
}

/** An RSA key for the App's JWTs (the fake GitHub does not check them; octokit must be able to sign). */
export function appPrivateKey(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** Environment for a test server acting as the App (id 4242) against the fake GitHub. */
export function appEnv(gh: FakeGitHub, secret: string, privateKey: string): Record<string, string> {
  return {
    GHE_HOST: gh.host,
    GHE_PROTOCOL: 'http',
    APP_ID: String(gh.app.appId),
    PRIVATE_KEY: privateKey,
    WEBHOOK_SECRET: secret,
    SHIPGATE_PUBLIC_URL: 'https://shipgate.example',
  };
}
