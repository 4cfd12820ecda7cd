import type Koa from 'koa';
import supertest from 'supertest';
import { buildDeps, loadServiceSigningKeys, type ServiceDeps } from '../../server/build-deps.js';
import { loadConfig } from '../../server/load-config.js';
import { createLogger } from '../../server/create-logger.js';
import { createMetrics } from '../../server/create-metrics.js';
import { createServer } from '../../api/create-server.js';
import { startWorker, type RunningWorker } from '../../worker/start-worker.js';
import { buildGitHubWebhook } from '../../server/github-app.js';
import { buildMcpEndpoint, type McpEndpoint } from '../../api/mcp/mcp-endpoint.js';
import { buildHookEndpoint } from '../../api/hooks/hook-endpoint.js';
import type { Role } from '../../core/accounts/roles.js';
import { logCapture } from './log-capture.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestUser {
  id: string;
  email: string;
  role: Role;
  key: string;
  /** Headers that authenticate as this user. */
  auth: { Authorization: string };
}

/** The server with nobody registered yet (`empty`): for tests of the very first registration. */
export interface EmptyTestApp {
  app: Koa;
  request: ReturnType<typeof supertest>;
  /** As `shipgate serve` builds them: the routes' deps and GitHub access. */
  deps: ServiceDeps;
  database: TestDatabase;
  logs: ReturnType<typeof logCapture>;
  /** The in-process job worker, when created with `worker`. */
  worker?: RunningWorker;
  /** The MCP gateway's endpoint (its sweep of ended sessions can be run at once). */
  mcp: McpEndpoint;
  close(): Promise<void>;
}

export interface TestApp extends EmptyTestApp {
  /** The ADMIN registered first, who grants roles. */
  admin: TestUser;
  /** Registers a user with the given role. */
  user(role?: Role, email?: string): Promise<TestUser>;
}

interface TestAppOptions {
  /** Queued jobs run in this process, as `shipgate serve` runs them. */
  worker?: boolean;
}

let counter = 0;

/**
 * The real server on its own real database, with logs captured; env overrides the config.
 * Registers an ADMIN first unless `empty` (for tests of the very first registration).
 */
export function createTestApp(env?: Record<string, string>, options?: TestAppOptions & { empty?: false }): Promise<TestApp>;
export function createTestApp(env: Record<string, string>, options: TestAppOptions & { empty: true }): Promise<EmptyTestApp>;
export async function createTestApp(
  env: Record<string, string> = {},
  { empty = false, worker = false }: TestAppOptions & { empty?: boolean } = {},
): Promise<TestApp | EmptyTestApp> {
  const database = await createTestDatabase();
  const config = loadConfig({
    SHIPGATE_DATA_DIR: '/tmp/shipgate-test-data',
    SHIPGATE_RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'info',
    ...env,
    DATABASE_URL: database.url,
  });
  const logs = logCapture();
  const logger = createLogger(config.logLevel, logs.stream);
  const metrics = createMetrics(false);
  // A key of this test's own (unless the env names one), registered like the real start-up does.
  const signing = await loadServiceSigningKeys(config, database.db, { withoutConfiguredKey: 'ephemeral' });
  const deps = buildDeps(config, database.db, logger, metrics, signing);
  // Every success body is checked against its route's declared schema (api/response-contract.ts).
  const mcp = buildMcpEndpoint(deps);
  const app = createServer(deps, {
    metrics,
    checkResponses: true,
    rawBodyRoutes: [buildGitHubWebhook(deps), mcp, buildHookEndpoint(deps)],
  });
  const request = supertest(app.callback());

  async function register(email: string): Promise<TestUser> {
    const res = await request.post('/api/v1/auth/register').send({ email, name: email.split('@')[0], password: 'correct horse battery' });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.id, email, role: res.body.role, key: res.body.api_key, auth: { Authorization: `Bearer ${res.body.api_key}` } };
  }

  const admin = empty ? undefined : await register(`admin${++counter}@example.com`);
  const running = worker ? await startWorker(deps, database.url) : undefined;
  async function close(): Promise<void> {
    await mcp.close();
    await running?.stop();
    await deps.evidenceParser.close();
    await deps.gateFiles.close();
    await database.drop();
  }
  const started: EmptyTestApp = { app, request, deps, database, logs, worker: running, mcp, close };
  if (!admin) return started;

  const user = async (role: Role = 'VIEWER', email?: string): Promise<TestUser> => {
    if (role === 'ADMIN' && !email) return admin;
    const created = await register(email ?? `${role.toLowerCase()}${++counter}@example.com`);
    if (created.role === role) return created;
    const res = await request.patch(`/api/v1/users/${created.id}`).set(admin.auth).send({ role });
    if (res.status !== 200) throw new Error(`role change failed: ${res.status}`);
    return { ...created, role };
  };
  return { ...started, admin, user };
}
