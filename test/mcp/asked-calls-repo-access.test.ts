import { useRepoAccessStack } from '../accounts/support/repo-access-stack.js';

// The App is installed on acme/secret (a private repository of the fake GitHub); access is GitHub's.
const stack = useRepoAccessStack(undefined);
const REPO = 'acme/secret';

/** A call held for a person's decision in an agent session of REPO, as the gateway records one. */
async function heldCall(): Promise<string> {
  const { t } = stack;
  await t.request
    .post('/api/v1/mcp/servers')
    .set(t.admin.auth)
    .send({ name: 'held', url: 'http://127.0.0.1:9/mcp', tools: { greet: ['repo:write'] } })
    .expect(201);
  await t.request
    .post('/api/v1/policies')
    .set(t.admin.auth)
    .send({ name: 'asking', ceiling: ['mcp:held/*', 'repo:write'], ask: ['repo:write'] })
    .expect(201);
  const session = await t.request
    .post('/api/v1/agent-sessions')
    .set(t.admin.auth)
    .send({ name: 'asks', repo_root: REPO, servers: ['held'], compliance_policy: 'asking', permissions: ['mcp:held/*', 'repo:write'] });
  expect(session.status).toBe(201);
  const now = Date.now();
  const [row] = await t.database
    .db('agent_call_approvals')
    .insert({
      execution_id: session.body.id,
      seq: 1,
      tool: 'held__greet',
      arguments: JSON.stringify({ name: 'ada' }),
      arguments_digest: 'sha256:' + '0'.repeat(64),
      capability: 'repo:write',
      requested_at: new Date(now),
      deadline: new Date(now + 120_000),
    })
    .returning('id');
  return row.id as string;
}

describe('held gateway calls and repository access (SHIPGATE_REPO_ACCESS=github)', () => {
  it('shows a held call only to approvers who may read its repository, and lets only those who may write decide it', async () => {
    const id = await heldCall();
    const outsider = await stack.linked('APPROVER', 'olga-outside');
    const reader = await stack.linked('APPROVER', 'rita-reader');
    stack.gh.app.grant(REPO, 'rita-reader', 'read');
    const writer = await stack.linked('APPROVER', 'wes-writer');
    stack.gh.app.grant(REPO, 'wes-writer', 'write');

    const listed = async (auth: Record<string, string>) =>
      ((await stack.t.request.get('/api/v1/agent-calls/pending').set(auth).expect(200)).body as { id: string }[]).map((p) => p.id);
    expect(await listed(outsider.auth)).not.toContain(id);
    expect(await listed(reader.auth)).toContain(id);
    expect(await listed(writer.auth)).toContain(id);

    const approve = (auth: Record<string, string>) => stack.t.request.post(`/api/v1/agent-calls/${id}/approve`).set(auth).send({});
    expect((await approve(outsider.auth)).status).toBe(404);
    const byReader = await approve(reader.auth);
    expect(byReader.status).toBe(403);
    expect(byReader.body.detail).toMatch(/acme\/secret/);
    const byWriter = await approve(writer.auth);
    expect(byWriter.status).toBe(200);
    expect(byWriter.body).toMatchObject({ id, decision: 'approved' });
  });
});
