import { randomUUID } from 'node:crypto';
import { decide, insertExecution, sha } from '../support/release-api.js';
import { fixture, uploadDocument } from '../release/support/evidence-documents.js';
import { useRepoAccessStack } from './support/repo-access-stack.js';
import { insertAgentSession, insertAnsweredDeployment, insertWorkflow } from './support/repo-bound-rows.js';

// Routes whose repository comes from a stored resource check it in the handler (docs/api.md, "Repository access"):
// SHIPGATE_REPO_ACCESS=github, the App installed on acme/api and acme/secret.
const stack = useRepoAccessStack('github');

/** A linked user of `role` who may read acme/api (with `permission`) and nothing of acme/secret. */
async function reader(role: 'OPERATOR' | 'AUDITOR' | 'VIEWER', permission = 'read') {
  const login = `res-${randomUUID().slice(0, 8)}`;
  const user = await stack.linked(role, login);
  stack.gh.app.grant('acme/api', login, permission);
  return user;
}

describe('evidence documents', () => {
  it('GET /releases/evidence/{id}/document answers 404 on an unreadable repository and 200 on a readable one', async () => {
    const bytes = fixture('jest-junit-passing.xml');
    const commit = sha(randomUUID());
    const doc = (repo: string) => uploadDocument(stack.t, { repo, commit, name: 'tests', bytes, format: 'junit' });
    const [readable, hidden] = [await doc('acme/api'), await doc('acme/secret')];
    const viewer = await reader('VIEWER');
    const get = (id: string) => stack.t.request.get(`/api/v1/releases/evidence/${id}/document`).set(viewer.auth);
    const denied = await get(hidden.id);
    expect([denied.status, denied.body.detail]).toEqual([404, 'Evidence document not found.']);
    expect((await get(readable.id)).status).toBe(200);
  });
});

describe('executions bound to a repository', () => {
  const bound = async (ownerId: string, repo: string) =>
    insertExecution(stack.t.database.db, {
      owner_id: ownerId,
      repo_root: repo,
      commit_sha: sha(randomUUID()),
      status: 'running',
      verdict: null,
    });

  it('their owner without access on GitHub gets 404 on the record, its tool calls and its cancel', async () => {
    const owner = await reader('OPERATOR');
    const hidden = await bound(owner.id, 'acme/secret');
    for (const res of [
      await stack.t.request.get(`/api/v1/executions/${hidden}`).set(owner.auth),
      await stack.t.request.get(`/api/v1/executions/${hidden}/tool-calls`).set(owner.auth),
      await stack.t.request.delete(`/api/v1/executions/${hidden}`).set(owner.auth),
    ]) {
      expect([res.status, res.body.detail]).toEqual([404, 'Execution not found.']);
    }
    const row = await stack.t.database.db('executions').where({ id: hidden }).first();
    expect(row.status).toBe('running');
    const readable = await bound(owner.id, 'acme/api');
    expect((await stack.t.request.get(`/api/v1/executions/${readable}/tool-calls`).set(owner.auth)).status).toBe(200);
  });

  it('cancel needs write: 403 naming it with read, 200 with write', async () => {
    const owner = await reader('OPERATOR');
    const run = await bound(owner.id, 'acme/api');
    const refused = await stack.t.request.delete(`/api/v1/executions/${run}`).set(owner.auth);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/write permission on acme\/api/);
    const writer = await reader('OPERATOR', 'write');
    const own = await bound(writer.id, 'acme/api');
    const done = await stack.t.request.delete(`/api/v1/executions/${own}`).set(writer.auth);
    expect([done.status, done.body.status]).toEqual([200, 'cancelled']);
  });

  it('an AUDITOR who sees every execution by role gets 404 on an unreadable one, its cancel too, as on an unknown id; ADMIN bypasses', async () => {
    const owner = await stack.t.user('OPERATOR');
    const hidden = await bound(owner.id, 'acme/secret');
    const auditor = await reader('AUDITOR');
    const unknown = randomUUID();
    for (const id of [hidden, unknown]) {
      const read = await stack.t.request.get(`/api/v1/executions/${id}`).set(auditor.auth);
      const cancel = await stack.t.request.delete(`/api/v1/executions/${id}`).set(auditor.auth);
      // A 403 on the cancel ("only the owner or an ADMIN") told the auditor the execution exists.
      expect([read.status, read.body, cancel.status, cancel.body]).toEqual([
        404,
        { detail: 'Execution not found.' },
        404,
        { detail: 'Execution not found.' },
      ]);
    }
    const admin = await stack.linked('ADMIN', `res-admin-${randomUUID().slice(0, 8)}`);
    expect((await stack.t.request.get(`/api/v1/executions/${hidden}`).set(admin.auth)).status).toBe(200);
    expect((await stack.t.request.delete(`/api/v1/executions/${hidden}`).set(admin.auth)).status).toBe(200);
  });

  it('GET /compliance/{id}/export answers 404 on an unreadable repository and 200 on a readable one', async () => {
    const auditor = await reader('AUDITOR');
    const owner = await stack.t.user('OPERATOR');
    const hidden = await bound(owner.id, 'acme/secret');
    const denied = await stack.t.request.get(`/api/v1/compliance/${hidden}/export`).set(auditor.auth);
    expect([denied.status, denied.body.detail]).toEqual([404, 'Execution not found.']);
    const readable = await bound(owner.id, 'acme/api');
    expect((await stack.t.request.get(`/api/v1/compliance/${readable}/export`).set(auditor.auth)).status).toBe(200);
  });
});

describe('agent sessions bound to a repository', () => {
  const close = (id: string, auth: { Authorization: string }) => stack.t.request.post(`/api/v1/agent-sessions/${id}/close`).set(auth);

  it('closing makes the check cancelling makes: 404 without read, 403 naming write with read, the session left running', async () => {
    const owner = await reader('OPERATOR');
    const hidden = await insertAgentSession(stack.t.database.db, { owner_id: owner.id, repo_root: 'acme/secret' });
    const denied = await close(hidden, owner.auth);
    expect([denied.status, denied.body.detail]).toEqual([404, 'Agent session not found.']);
    const readOnly = await insertAgentSession(stack.t.database.db, { owner_id: owner.id, repo_root: 'acme/api' });
    const refused = await close(readOnly, owner.auth);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/write permission on acme\/api/);
    const rows = await stack.t.database.db('executions').whereIn('id', [hidden, readOnly]).select('status');
    expect(rows.map((r) => r.status)).toEqual(['running', 'running']);
  });

  it('its owner with write closes it', async () => {
    await stack.t.request.post('/api/v1/mcp/servers').set(stack.t.admin.auth).send({ name: 'bound', url: 'http://127.0.0.1:9/mcp' });
    const writer = await reader('OPERATOR', 'write');
    const opened = await stack.t.request
      .post('/api/v1/agent-sessions')
      .set(writer.auth)
      .send({ name: 'Fix the build', repo_root: 'acme/api', servers: ['bound'] });
    expect(opened.status).toBe(201);
    const closed = await close(opened.body.id, writer.auth);
    expect([closed.status, closed.body.status]).toEqual([200, 'completed']);
  });
});

describe('workflows bound to a repository', () => {
  const bound = async (ownerId: string, repo: string) =>
    insertWorkflow(stack.t.database.db, { owner_id: ownerId, repo_root: repo, commit_sha: sha(randomUUID()) });

  it('their owner without access on GitHub gets 404 on the record, its cancel and its export', async () => {
    const owner = await reader('OPERATOR');
    const hidden = await bound(owner.id, 'acme/secret');
    for (const res of [
      await stack.t.request.get(`/api/v1/workflows/${hidden}`).set(owner.auth),
      await stack.t.request.delete(`/api/v1/workflows/${hidden}`).set(owner.auth),
      await stack.t.request.get(`/api/v1/workflows/${hidden}/export`).set(owner.auth),
    ]) {
      expect([res.status, res.body.detail]).toEqual([404, 'Workflow not found.']);
    }
    expect((await stack.t.database.db('workflows').where({ id: hidden }).first()).status).toBe('running');
    const readable = await bound(owner.id, 'acme/api');
    expect((await stack.t.request.get(`/api/v1/workflows/${readable}`).set(owner.auth)).status).toBe(200);
    expect((await stack.t.request.get(`/api/v1/workflows/${readable}/export`).set(owner.auth)).status).toBe(200);
  });

  it('cancel needs write: 403 with read', async () => {
    const owner = await reader('OPERATOR', 'triage');
    const run = await bound(owner.id, 'acme/api');
    const refused = await stack.t.request.delete(`/api/v1/workflows/${run}`).set(owner.auth);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/write permission on acme\/api/);
  });
});

describe('deployments', () => {
  it('the list hides deployments of unreadable repositories; repo_root of one answers 404', async () => {
    const commit = sha(randomUUID());
    const answered = async (repo: string) => {
      const { snapshot_id } = await decide(stack.t, repo, commit);
      return insertAnsweredDeployment(stack.t.database.db, { repo_root: repo, commit_sha: commit, snapshot_id });
    };
    const [readable, hidden] = [await answered('acme/api'), await answered('acme/secret')];
    const viewer = await reader('VIEWER');
    const ids = async (auth: { Authorization: string }) => {
      const res = await stack.t.request.get('/api/v1/releases/deployments').set(auth).query({ limit: 100 });
      expect(res.status).toBe(200);
      return res.body.map((d: { id: string }) => d.id);
    };
    expect(await ids(stack.t.admin.auth)).toEqual(expect.arrayContaining([readable, hidden]));
    const seen = await ids(viewer.auth);
    expect(seen).toContain(readable);
    expect(seen).not.toContain(hidden);
    const filtered = await stack.t.request.get('/api/v1/releases/deployments').set(viewer.auth).query({ repo_root: 'acme/secret' });
    expect([filtered.status, filtered.body.detail]).toEqual([404, 'Repository not found.']);
  });
});
