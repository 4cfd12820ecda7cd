import { startFakeLlm, type FakeLlm } from '../../fakes/fake-llm-server.js';
import { waitFor } from '../../executions/support/wait-for.js';
import { createTestApp, type TestApp, type TestUser } from '../../support/test-app.js';

export interface WorkflowApp {
  llm: FakeLlm;
  t: TestApp;
  operator: TestUser;
  /** The workflow record as its operator reads it. */
  get(id: string): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies are read freely
  /** Creates the workflow (201) and waits until it is no longer queued or running. */
  runToEnd(body: Record<string, unknown>): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
}

/**
 * The test file's app: an API with its worker against the fake LLM, and an OPERATOR, started
 * before the file's tests and closed after them; the fake's scripted answers reset after each test.
 */
export function useWorkflowApp(): WorkflowApp {
  const app = {
    async get(id: string) {
      return (await app.t.request.get(`/api/v1/workflows/${id}`).set(app.operator.auth)).body;
    },
    async runToEnd(body: Record<string, unknown>) {
      const created = await app.t.request.post('/api/v1/workflows').set(app.operator.auth).send(body);
      expect(created.status).toBe(201);
      return waitFor(
        () => app.get(created.body.id),
        (w) => !['queued', 'running'].includes(w.status),
        60_000,
      );
    },
  } as WorkflowApp;
  beforeAll(async () => {
    app.llm = await startFakeLlm();
    app.t = await createTestApp(app.llm.env(), { worker: true });
    app.operator = await app.t.user('OPERATOR');
  });
  afterEach(() => app.llm.reset());
  afterAll(async () => {
    await app.t.close();
    await app.llm.close();
  });
  return app;
}
