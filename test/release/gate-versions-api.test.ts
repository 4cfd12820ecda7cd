import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /releases/gates/{owner}/{repo}/versions', () => {
  it('lists recorded versions newest first, keyset-paged by version number, to every role', async () => {
    const repo = `acme/versions-${randomUUID().slice(0, 8)}`;
    const url = `/api/v1/releases/gates/${repo}`;
    const viewer = await t.user('VIEWER');
    expect((await t.request.get(`${url}/versions`).set(viewer.auth).expect(200)).body).toEqual({ versions: [], next_before: null });
    for (const days of [1, 2, 3]) {
      await t.request
        .put(url)
        .set(t.admin.auth)
        .send({ evidence_max_age_seconds: days * 86400 })
        .expect(201);
    }
    const first = (await t.request.get(`${url}/versions?limit=2`).set(viewer.auth).expect(200)).body;
    expect(first.versions.map((v: { version: number }) => v.version)).toEqual([3, 2]);
    expect(first.versions[0].gate.evidence_max_age_seconds).toBe(3 * 86400);
    expect(first.versions[0].created_by).toBe(t.admin.id);
    expect(first.next_before).toBe(2);
    const second = (await t.request.get(`${url}/versions?limit=2&before=2`).set(viewer.auth).expect(200)).body;
    expect(second.versions.map((v: { version: number }) => v.version)).toEqual([1]);
    expect(second.next_before).toBeNull();
    expect((await t.request.get(`${url}/versions?limit=0`).set(viewer.auth)).status).toBe(422);
    expect((await t.request.get(`${url}/versions`)).status).toBe(401);
  });
});
