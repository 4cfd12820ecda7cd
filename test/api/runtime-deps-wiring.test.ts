import { buildRuntimeDeps } from '../../worker/build-runtime-deps.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SHIPGATE_HTTP_ALLOWLIST: 'mirror.internal,127.0.0.1:9999' });
});
afterAll(async () => {
  await t.close();
});

describe('runtime deps built from the configuration', () => {
  it('hands the configured http_get allowlist to the runtime', () => {
    expect(buildRuntimeDeps(t.deps).httpAllowlist).toEqual(['mirror.internal', '127.0.0.1:9999']);
  });

  it('reports an unconfigured provider as undefined (provider_not_configured), a configured one as a provider', () => {
    const runtime = buildRuntimeDeps(t.deps);
    expect(runtime.providers('anthropic')).toBeUndefined();
    expect(runtime.providers('anthropic', 'sk-override-12345678')?.name).toBe('anthropic');
  });
});
