import { COMMIT, REPO, startFakeShipgate, type FakeShipgate } from './fake-shipgate.js';
import { runAction, type ActionRun } from './run-action.js';

/** The key the Action is run with against the hostile fake. */
export const KEY = 'sg_hostile-server-test-key-0123456789';
export const DECISION = 'GET /api/v1/releases/decision';
export const EVIDENCE = 'POST /api/v1/releases/evidence';

/** The one error line the step failed with (the runner's ::error:: command). */
export const failure = (run: ActionRun) => run.log.split('\n').filter((line) => line.startsWith('::error::'));

/**
 * One fake shipgate for a test file, answering what each test tells it to (a black-box probe's hostile server):
 * started before the file's tests, its answers and requests emptied before each, closed after. `gate` runs the
 * bundled Action's decision gate against it.
 */
export function useHostileShipgate(): { readonly fake: FakeShipgate; gate(extra?: Record<string, string>): Promise<ActionRun> } {
  let fake: FakeShipgate | undefined;
  beforeAll(async () => {
    fake = await startFakeShipgate();
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(() => {
    fake!.answers = {};
    fake!.requests = [];
  });
  return {
    get fake() {
      return fake!;
    },
    gate: (extra = {}) => runAction({ 'api-url': fake!.url, 'api-key': KEY, repository: REPO, 'commit-sha': COMMIT, ...extra }),
  };
}
