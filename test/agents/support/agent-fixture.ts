import type { TestApp } from '../../support/test-app.js';
import type { HookSettings } from './agent-run.js';

/** A policy the agents run under in these tests: `ceiling`, and `git push --force*` denied by the first tool rule. */
export async function forcePushDeniedPolicy(t: TestApp, name: string, ceiling: string[]): Promise<void> {
  await t.request
    .post('/api/v1/policies')
    .set(t.admin.auth)
    .send({ name, ceiling, tool_rules: [{ match: { command: 'git push --force*' }, verdict: 'deny' }] })
    .expect(201);
}

/** A repository agent key under `policy`, and the hooks file GET /agent-keys/{id}/hooks?agent= hands out for it. */
export async function agentKeyWithHooks(
  t: TestApp,
  key: { name: string; repo: string; policy: string; agent: 'copilot' | 'gemini' },
): Promise<{ key: string; hooks: HookSettings & { env: Record<string, string> } }> {
  const created = await t.request
    .post('/api/v1/agent-keys')
    .set(t.admin.auth)
    .send({ name: key.name, repo_root: key.repo, compliance_policy: key.policy })
    .expect(201);
  const hooks = await t.request.get(`/api/v1/agent-keys/${created.body.id}/hooks?agent=${key.agent}`).set(t.admin.auth).expect(200);
  return { key: created.body.key, hooks: hooks.body };
}

/** The agent sessions of `repo` (a key's runs open them), newest first, each with its calls. */
export async function agentSessionsOf(t: TestApp, repo: string) {
  const list = await t.request.get('/api/v1/executions?limit=100').set(t.admin.auth).expect(200);
  const ids = (list.body as { id: string; kind: string; repo_root: string }[])
    .filter((e) => e.kind === 'agent_session' && e.repo_root === repo)
    .map((e) => e.id);
  return Promise.all(ids.map(async (id) => (await t.request.get(`/api/v1/executions/${id}`).set(t.admin.auth).expect(200)).body));
}
