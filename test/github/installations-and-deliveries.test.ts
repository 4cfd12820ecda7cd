import { randomUUID } from 'node:crypto';
import { createTestApp } from '../support/test-app.js';
import { deliver, examplePayload, pullRequestPayload, settle } from '../support/github-deliveries.js';
import { deliverFailingDelivery, deliveryRow } from '../support/delivery-outcomes.js';
import { useAppWithFakeGitHub } from './support/app-with-fake-github.js';

const SECRET = 'admin-pages-secret';
const stack = useAppWithFakeGitHub({ secret: SECRET, installationId: 77, gate: 'required_checks: []\n' });

type Delivery = { delivery_id: string; outcome: string; reason: string | null; duplicates: number; attempts: number } & Record<
  string,
  unknown
>;

async function deliveries(query = '') {
  const res = await stack.t.request.get(`/api/v1/github/deliveries${query}`).set(stack.t.admin.auth).expect(200);
  return res.body.deliveries as Delivery[];
}

describe('GET /github/installations (ADMIN)', () => {
  it("lists the App's installations with their account, repositories (every page) and suspension", async () => {
    for (let i = 0; i < 105; i++) stack.gh.app.installations.set(`zeta/repo-${String(i).padStart(3, '0')}`, 501);
    stack.gh.app.installations.set('halted/tool', 502);
    stack.gh.app.suspended.set(502, '2026-01-02T03:04:05Z');
    const res = await stack.t.request.get('/api/v1/github/installations').set(stack.t.admin.auth).expect(200);
    expect(res.body).toMatchObject({ configured: true, app_id: stack.gh.app.appId, reason: null });
    const byId = new Map((res.body.installations as { id: number; repositories: string[] }[]).map((i) => [i.id, i]));
    expect(byId.get(501)).toMatchObject({
      account: { login: 'zeta', type: 'Organization' },
      suspended_at: null,
      repositories_unavailable: null,
    });
    expect(byId.get(501)?.repositories).toHaveLength(105);
    expect(byId.get(502)).toMatchObject({
      account: { login: 'halted' },
      suspended_at: '2026-01-02T03:04:05Z',
      repositories: [],
      repositories_unavailable: expect.stringContaining('Suspended'),
    });
  });

  it('is for an ADMIN only', async () => {
    const operator = await stack.t.user('OPERATOR');
    await stack.t.request.get('/api/v1/github/installations').set(operator.auth).expect(403);
    await stack.t.request.get('/api/v1/github/deliveries').set(operator.auth).expect(403);
  });

  it('answers 503 with a detail when GitHub fails, never a 500', async () => {
    stack.gh.app.failNext('GET', /\/app\/installations$/, { status: 500, body: { message: 'Server Error' } });
    const res = await stack.t.request.get('/api/v1/github/installations').set(stack.t.admin.auth).expect(503);
    expect(res.body.detail).toContain('GitHub answered 500');
  });

  it('answers 503 saying GitHub did not answer when its answer is past what shipgate reads (a 300 MB one crashed the job worker)', async () => {
    stack.gh.app.failNext('GET', /\/app\/installations$/, { status: 200, text: `[${'"x",'.repeat(9_000_000)}"x"]` });
    const started = performance.now();
    const res = await stack.t.request.get('/api/v1/github/installations').set(stack.t.admin.auth).expect(503);
    expect(res.body.detail).toMatch(/GitHub did not answer \(GitHub's answer is larger than the 32 MiB shipgate reads\.\)/);
    expect(performance.now() - started).toBeLessThan(10_000);
    stack.gh.takeViolations();
  });

  it('says the App is not configured without App credentials', async () => {
    const tokenOnly = await createTestApp(stack.gh.env());
    try {
      const res = await tokenOnly.request.get('/api/v1/github/installations').set(tokenOnly.admin.auth).expect(200);
      expect(res.body).toMatchObject({
        configured: false,
        app_id: null,
        installations: [],
        reason: expect.stringContaining('not configured'),
      });
    } finally {
      await tokenOnly.close();
    }
  });
});

describe('GET /github/deliveries (ADMIN)', () => {
  it('shows a processed, an ignored, a duplicate and a failed delivery with its reason, filterable by outcome', async () => {
    const repo = `acme/deliveries-${randomUUID().slice(0, 6)}`;
    stack.repository(repo);
    const processed = `ok-${randomUUID()}`;
    const pr = pullRequestPayload('opened', { number: 30, sha: 'a'.repeat(40) }, repo);
    expect((await deliver(stack.t, 'pull_request', pr, { secret: SECRET, id: processed })).body.status).toBe('queued');
    await settle(stack.t);
    // GitHub delivers it again: answered duplicate, counted on the row, nothing done.
    expect((await deliver(stack.t, 'pull_request', pr, { secret: SECRET, id: processed })).body.status).toBe('duplicate');
    const ignored = `ignored-${randomUUID()}`;
    const star = examplePayload('star', 'created', repo);
    expect((await deliver(stack.t, 'star', star, { secret: SECRET, id: ignored })).body.status).toBe('ignored');

    const failed = `failing-${randomUUID()}`;
    let retrying: Delivery | undefined;
    await deliverFailingDelivery(stack.t, stack.gh, {
      id: failed,
      repo,
      number: 31,
      secret: SECRET,
      afterFirst: async () => {
        retrying = (await deliveries(`?repo_root=${repo}&outcome=queued`)).find((d) => d.delivery_id === failed);
      },
    });
    // A failed attempt that will be retried: still queued, with the error it is retried after.
    expect(retrying).toMatchObject({ outcome: 'queued', attempts: 1, reason: expect.stringContaining('GitHub answered 500') });

    const all = await deliveries(`?repo_root=${repo}`);
    const find = (id: string) => all.find((d) => d.delivery_id === id);
    expect(find(processed)).toMatchObject({
      outcome: 'processed',
      reason: null,
      duplicates: 1,
      attempts: 1,
      event: 'pull_request',
      action: 'opened',
    });
    expect(find(processed)?.last_duplicate_at).toEqual(expect.any(String));
    expect(find(processed)?.duration_ms).toEqual(expect.any(Number));
    expect(find(ignored)).toMatchObject({ outcome: 'ignored', reason: expect.any(String), attempts: 0, started_at: null });
    expect(find(failed)).toMatchObject({
      outcome: 'failed',
      attempts: 5,
      event: 'merge_group',
      reason: expect.stringContaining('GitHub answered 500'),
    });
    expect(find(failed)?.reason).not.toMatch(/\n|at .*\.ts/);
    expect(all.map((d) => d.delivery_id)).toEqual([failed, ignored, processed]);

    expect((await deliveries(`?repo_root=${repo}&outcome=failed`)).map((d) => d.delivery_id)).toEqual([failed]);
    expect((await deliveries(`?repo_root=${repo}&outcome=duplicate`)).map((d) => d.delivery_id)).toEqual([processed]);
    expect((await deliveries(`?repo_root=${repo}&outcome=processed`)).map((d) => d.delivery_id)).toEqual([processed]);
    expect((await deliveries(`?repo_root=${repo}&outcome=ignored`)).map((d) => d.delivery_id)).toEqual([ignored]);
    expect((await deliveryRow(stack.t, processed))?.duplicates).toBe(1);
  });

  it('pages newest first through the Link header without losing a delivery', async () => {
    const repo = `acme/paging-${randomUUID().slice(0, 6)}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = `page-${i}-${randomUUID()}`;
      ids.push(id);
      await deliver(stack.t, 'star', examplePayload('star', 'created', repo), { secret: SECRET, id });
    }
    const seen: string[] = [];
    let url: string | null = `/api/v1/github/deliveries?repo_root=${repo}&limit=2`;
    while (url) {
      const res: { body: { deliveries: Delivery[] }; headers: Record<string, string> } = await stack.t.request
        .get(url)
        .set(stack.t.admin.auth)
        .expect(200);
      seen.push(...(res.body.deliveries as Delivery[]).map((d) => d.delivery_id));
      url = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1] ?? null;
    }
    expect(seen).toEqual([...ids].reverse());
    await stack.t.request.get('/api/v1/github/deliveries?cursor=nonsense').set(stack.t.admin.auth).expect(422);
  });
});
