import { randomBytes } from 'node:crypto';
import supertest from 'supertest';
import { buildDeps } from '../../server/build-deps.js';
import { createMetrics } from '../../server/create-metrics.js';
import { createServer } from '../../api/create-server.js';
import { createKnex } from '../../db/create-knex.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { withDatabase } from '../../db/with-database.js';
import { cloneNamePrefix } from '../support/test-database.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('health and readiness', () => {
  it('answers /healthz 200 without a key', async () => {
    const res = await t.request.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 on a migrated database', async () => {
    const res = await t.request.get('/readyz');
    expect(res.status).toBe(200);
    // No webhook secret is known in this test's server: GitHub's deliveries are refused (docs/github-app.md, "Webhook signatures").
    expect(res.body).toEqual({ status: 'ready', webhook_deliveries: 'refused' });
  });

  it('answers /readyz 503 while migrations are pending', async () => {
    const serverUrl = process.env.SHIPGATE_TEST_SERVER_URL!;
    const name = `${cloneNamePrefix(process.env.SHIPGATE_TEST_TEMPLATE!)}empty_${randomBytes(4).toString('hex')}`;
    const admin = createKnex(serverUrl, 1);
    await admin.raw(`CREATE DATABASE ${name}`);
    const empty = createKnex(withDatabase(serverUrl, name), 1);
    try {
      const metrics = createMetrics(false);
      const app = createServer(buildDeps(t.deps.config, empty, t.deps.logger, metrics), { metrics });
      const res = await supertest(app.callback()).get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ detail: 'Migrations pending.' });
    } finally {
      await empty.destroy();
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    }
  });
});

describe('/metrics', () => {
  it('exposes Prometheus text with request counts labelled by route template', async () => {
    const metrics = createMetrics(true);
    const request = supertest(createServer(buildDeps(t.deps.config, t.database.db, t.deps.logger, metrics), { metrics }).callback());
    await request.get('/healthz').expect(200);
    await request.patch('/api/v1/users/00000000-0000-4000-8000-000000000000').set(t.admin.auth).send({ role: 'VIEWER' }).expect(404);
    await request.get('/no-such-page').expect(404);
    const res = await request.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain('# TYPE shipgate_http_requests_total counter');
    expect(res.text).toContain('shipgate_http_requests_total{method="GET",route="/healthz",status="200"} 1');
    expect(res.text).toContain('shipgate_http_requests_total{method="PATCH",route="/api/v1/users/:user_id",status="404"} 1');
    expect(res.text).toContain('shipgate_http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(res.text).toContain('shipgate_http_request_duration_seconds_bucket');
    expect(res.text).toMatch(/^shipgate_process_cpu_seconds_total /m);
    expect(res.text).not.toContain('00000000-0000-4000-8000-000000000000');
  });
});
