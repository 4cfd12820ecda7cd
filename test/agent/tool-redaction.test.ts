import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm-server.js';
import { sendText, startHttpServer, type FakeHttpServer } from '../fakes/fake-http.js';
import { call, finalAnswer, toolTurn } from '../support/scripted-provider.js';
import { LEAKED_SECRETS, LEAKY_JSON_TEXT, LEAKY_TEXT, TOKEN_AT_LINE_START } from '../support/leaked-secrets.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { toolAnswers } from '../executions/support/agent-replies.js';
import { waitFor } from '../executions/support/wait-for.js';
import { agentHarness } from './support/agent-harness.js';
import { sha256Hex } from '../../core/canonical-json.js';

// Issue 34, acceptance 4 (docs/workflows.md, "Governed agent executions": verdict): a built-in
// tool's answer passes the policy's output rules value by value before the model or the record
// sees it, as an upstream's result does through the MCP gateway.

describe('http_get of a page holding secrets, under the default policy', () => {
  let llm: FakeLlm;
  let page: FakeHttpServer;
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    page = await startHttpServer(async (req, res) => sendText(res, 200, req.url === '/json' ? LEAKY_JSON_TEXT : LEAKY_TEXT));
    llm = await startFakeLlm();
    llm.otherwise((request) =>
      toolAnswers(request) > 0
        ? { text: 'Read both pages.' }
        : {
            toolCalls: [
              { name: 'http_get', arguments: JSON.stringify({ url: `${page.url}/log` }) },
              { name: 'http_get', arguments: JSON.stringify({ url: `${page.url}/json` }) },
            ],
          },
    );
    t = await createTestApp({ ...llm.env(), SHIPGATE_HTTP_ALLOWLIST: page.host }, { worker: true });
    owner = await t.user('OPERATOR');
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await page.close();
  });

  it('reaches neither the model nor the execution, its tool calls or its export, and the run stays compliant', async () => {
    const created = await t.request.post('/api/v1/tasks').set(owner.auth).send({ task: 'Read the build log.' });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const execution = await waitFor(
      async () => (await t.request.get(`/api/v1/executions/${id}`).set(owner.auth)).body,
      (e) => e.status === 'completed' || e.status === 'failed',
    );
    expect(execution).toMatchObject({ status: 'completed', verdict: 'compliant' });
    expect(execution.tool_calls.map((c: { output: string }) => c.output)).toEqual([
      expect.stringContaining(
        'build log\n[REDACTED:secrets:github_token]\naws\t[REDACTED:secrets:aws_access_key]\n[REDACTED:secrets:private_key]',
      ),
      expect.stringContaining('{"log":"step 1\\n[REDACTED:secrets:github_token]\\nstep 2"}'),
    ]);
    const calls = await t.request.get(`/api/v1/executions/${id}/tool-calls?limit=100`).set(owner.auth);
    const exported = await t.request.get(`/api/v1/compliance/${id}/export`).set(owner.auth);
    expect([calls.status, exported.status]).toEqual([200, 200]);
    const modelSaw = JSON.stringify(llm.requests.map((r) => r.body));
    for (const secret of LEAKED_SECRETS) {
      expect(modelSaw).not.toContain(secret);
      expect(JSON.stringify(execution)).not.toContain(secret);
      expect(calls.text).not.toContain(secret);
      expect(exported.text).not.toContain(secret);
    }
  });
});

describe('a tool answering data (read_upstream)', () => {
  it('redacts each string of the data, so its JSON text stays valid and the secret is gone, from the system prompt too', async () => {
    const content = `Deploy notes\n${TOKEN_AT_LINE_START}\n${LEAKY_TEXT}`;
    const artifact = { kind: 'report' as const, name: 'notes', content, digest: sha256Hex(content) };
    const h = agentHarness([toolTurn([call('c1', 'read_upstream')]), finalAnswer('ok')], {
      state: { upstreamArtifacts: [{ execution_id: 'e-1', stage_id: 'intake', artifacts: [artifact] }] },
    });
    await h.run();
    const stored = h.stored();
    const [entry] = stored.execution.tool_calls;
    expect(JSON.parse(entry.output!)[0].artifacts[0].content).toBe(
      'Deploy notes\n[REDACTED:secrets:github_token]\nbuild log\n[REDACTED:secrets:github_token]\naws\t[REDACTED:secrets:aws_access_key]\n[REDACTED:secrets:private_key]\n',
    );
    const answer = stored.transcript.find((m) => m.role === 'tool');
    for (const secret of LEAKED_SECRETS) {
      expect(JSON.stringify(answer)).not.toContain(secret);
      expect(JSON.stringify(entry)).not.toContain(secret);
      expect(JSON.stringify(h.provider.requests)).not.toContain(secret);
    }
    expect(stored.execution.verdict).toBe('compliant');
  });
});
