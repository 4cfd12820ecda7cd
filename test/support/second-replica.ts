import type Koa from 'koa';
import type { Knex } from 'knex';
import supertest from 'supertest';
import { createServer } from '../../api/create-server.js';
import { createKnex } from '../../db/create-knex.js';
import { buildDeps, loadServiceSigningKeys, type ServiceDeps } from '../../server/build-deps.js';
import { createLogger } from '../../server/create-logger.js';
import { createMetrics } from '../../server/create-metrics.js';
import { buildGitHubWebhook } from '../../server/github-app.js';
import { loadConfig } from '../../server/load-config.js';
import { buildMcpEndpoint } from '../../api/mcp/mcp-endpoint.js';
import { buildHookEndpoint } from '../../api/hooks/hook-endpoint.js';
import { startWorker, type RunningWorker } from '../../worker/start-worker.js';
import { logCapture } from './log-capture.js';

/** Another replica of shipgate on an existing database: its own pool, deps, credentials cache, Probot, MCP sessions and (optionally) worker. */
export interface Replica {
  /** The replica's application, for a test that listens on a real port (MCP clients). */
  app: Koa;
  request: ReturnType<typeof supertest>;
  deps: ServiceDeps;
  /** The replica's own pool on the shared database, for a test that reads what it stored. */
  database: { url: string; db: Knex };
  worker?: RunningWorker;
  close(): Promise<void>;
}

/** Starts a replica as `shipgate serve` builds one, sharing only the database (and SHIPGATE_SECRET_KEY) with the others. */
export async function startReplica(databaseUrl: string, env: Record<string, string>, { worker = false } = {}): Promise<Replica> {
  const config = loadConfig({
    SHIPGATE_DATA_DIR: '/tmp/shipgate-test-data',
    SHIPGATE_RATE_LIMIT_PER_MINUTE: '0',
    ...env,
    DATABASE_URL: databaseUrl,
  });
  const db = createKnex(databaseUrl, 5);
  const logger = createLogger('info', logCapture().stream);
  const metrics = createMetrics(false);
  // With SHIPGATE_SIGNING_KEY, it signs with that key as the other replicas given it do; else with a key of its own.
  const signing = env.SHIPGATE_SIGNING_KEY ? await loadServiceSigningKeys(config, db, { withoutConfiguredKey: 'ephemeral' }) : undefined;
  const deps = buildDeps(config, db, logger, metrics, signing);
  const mcp = buildMcpEndpoint(deps);
  const app = createServer(deps, {
    metrics,
    checkResponses: true,
    rawBodyRoutes: [buildGitHubWebhook(deps), mcp, buildHookEndpoint(deps)],
  });
  const running = worker ? await startWorker(deps, databaseUrl) : undefined;
  return {
    app,
    request: supertest(app.callback()),
    deps,
    database: { url: databaseUrl, db },
    worker: running,
    async close() {
      await mcp.close();
      await running?.stop();
      await db.destroy();
    },
  };
}
