import { startFakeLlm, type FakeLlm } from '../../fakes/fake-llm-server.js';
import { createTestApp, type TestApp, type TestUser } from '../../support/test-app.js';
import { sharedKeys, startWorkerProcess, type WorkerProcess } from './worker-process.js';

export interface ApiWithWorkerProcesses {
  llm: FakeLlm;
  /** The API in this process: it only queues; jobs run in the worker processes. */
  t: TestApp;
  operator: TestUser;
  /** Starts one more `shipgate worker` process on the API's database and keys. */
  worker(extraEnv?: Record<string, string>): Promise<WorkerProcess>;
  /** Stops every worker process started so far. */
  stopWorkers(): Promise<void>;
}

/**
 * The test file's deployment of separate processes: the API here (sharing its keys with the
 * workers, as replicas do) against the fake LLM, an OPERATOR, and the worker processes the tests
 * start; all of it is stopped when the file's tests end.
 */
export function useApiWithWorkerProcesses(): ApiWithWorkerProcesses {
  let env: Record<string, string>;
  const workers: WorkerProcess[] = [];
  const app = {
    async worker(extraEnv: Record<string, string> = {}) {
      const started = await startWorkerProcess(app.t.database.url, { ...env, ...extraEnv });
      workers.push(started);
      return started;
    },
    async stopWorkers() {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
    },
  } as ApiWithWorkerProcesses;
  beforeAll(async () => {
    app.llm = await startFakeLlm();
    env = { ...app.llm.env(), ...sharedKeys() };
    app.t = await createTestApp(env);
    app.operator = await app.t.user('OPERATOR');
  });
  afterAll(async () => {
    await app.stopWorkers();
    await app.t.close();
    await app.llm.close();
  });
  return app;
}
