import { ValidationError } from '../../core/errors.js';
import { gateSchema } from '../../core/release/gate.js';
import type { GateStore } from '../../core/release/release-store.js';
import { setGateFromFile } from '../../core/release/set-gate-from-file.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const neverStored: GateStore = {
  latestGate: () => Promise.reject(new Error('not reached')),
  saveGate: () => Promise.reject(new Error('not reached')),
  gateVersion: () => Promise.reject(new Error('not reached')),
  gateVersions: () => Promise.reject(new Error('not reached')),
};

async function fileProblems(text: string) {
  try {
    await setGateFromFile(neverStored, 'acme/app', text);
  } catch (error) {
    return (error as ValidationError).issues.map((i) => i.loc.join('.'));
  }
  return [];
}

describe('gate fields for deployments', () => {
  it('defaults deployment_wait_seconds to 1800 and accepts 0 to 86400 whole seconds', () => {
    expect(gateSchema.parse({}).deployment_wait_seconds).toBe(1800);
    expect(gateSchema.parse({ deployment_wait_seconds: 0 }).deployment_wait_seconds).toBe(0);
    expect(gateSchema.parse({ deployment_wait_seconds: 86400 }).deployment_wait_seconds).toBe(86400);
    for (const bad of [-1, 86401, 1.5, '60']) expect(gateSchema.safeParse({ deployment_wait_seconds: bad }).success).toBe(false);
  });

  it('validates environments: names, require_attested as a boolean, no unknown fields', () => {
    expect(gateSchema.parse({ environments: { production: {} } }).environments).toEqual({ production: { require_attested: false } });
    expect(gateSchema.safeParse({ environments: { production: { require_attested: 'yes' } } }).success).toBe(false);
    expect(gateSchema.safeParse({ environments: { production: { require_atested: true } } }).success).toBe(false);
    expect(gateSchema.safeParse({ environments: { '': { require_attested: true } } }).success).toBe(false);
    expect(gateSchema.safeParse({ environments: ['production'] }).success).toBe(false);
  });

  it('reports a bad field of .github/shipgate.yml at its place in the file', async () => {
    expect(await fileProblems('environments:\n  production:\n    require_attested: maybe\n')).toEqual([
      '.github/shipgate.yml.environments.production.require_attested',
    ]);
    expect(await fileProblems('deployment_wait_seconds: 90000\n')).toEqual(['.github/shipgate.yml.deployment_wait_seconds']);
  });

  describe('through PUT /releases/gates/{owner}/{repo}', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('stores valid fields and answers 422 {loc, msg, type} for invalid ones', async () => {
      const ok = await t.request
        .put('/api/v1/releases/gates/acme/app')
        .set(t.admin.auth)
        .send({ deployment_wait_seconds: 0, environments: { production: { require_attested: true } } });
      expect(ok.status).toBe(201);
      expect(ok.body.gate).toMatchObject({ deployment_wait_seconds: 0, environments: { production: { require_attested: true } } });
      const bad = await t.request
        .put('/api/v1/releases/gates/acme/app')
        .set(t.admin.auth)
        .send({ environments: { production: { require_attested: 1 } } });
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['body', 'environments', 'production', 'require_attested']);
    });
  });
});
