/**
 * The service as `npm start` builds it (same middleware, auth, logging at info into a discarded
 * stream, the default pool of 10), plus the bench's floor route, in its own process so the load
 * generator does not share its CPU. With BENCH_SERVER_WORKER=1 it also runs the job worker in
 * the same process, as `shipgate serve` does (server/serve.ts). Reports `{url}` to the parent
 * over IPC.
 */
import pino from 'pino';
import http from 'node:http';
import { z } from 'zod';
import { buildDeps, loadServiceSigningKeys } from '../../server/build-deps.js';
import { loadConfig } from '../../server/load-config.js';
import { createLogger } from '../../server/create-logger.js';
import { createMetrics } from '../../server/create-metrics.js';
import { createServer } from '../../api/create-server.js';
import { mountRoutes } from '../../api/mount-routes.js';
import { defineRoute } from '../../api/route.js';
import { decisionQuerySchema } from '../../api/schemas/release-schemas.js';
import { createKnex } from '../../db/create-knex.js';
import { migrateJobQueue } from '../../db/job-queue.js';
import { buildGitHubWebhook } from '../../server/github-app.js';
import { buildMcpEndpoint } from '../../api/mcp/mcp-endpoint.js';
import { buildHookEndpoint } from '../../api/hooks/hook-endpoint.js';
import { loadPrices } from '../../server/load-prices.js';
import { startWorker } from '../../worker/start-worker.js';

/** The floor: the decision's own input validation and auth, then ONE indexed query. */
const floorRoute = defineRoute({
  method: 'get',
  path: '/bench/floor',
  tags: ['releases'],
  auth: 'any',
  summary: 'bench floor',
  description: "The decision's validation and auth, then one indexed query: what the decision costs at least.",
  query: decisionQuerySchema,
  responses: { 200: { description: 'latest snapshot', schema: z.unknown() } },
  async handler({ query }) {
    const row = await db('snapshots')
      .where({ repo_root: query.repo_root, commit_sha: query.commit_sha })
      .orderBy('seen_at', 'desc')
      .first('id', 'decision', 'status');
    return { body: row ?? null };
  },
});

const config = loadConfig({ ...process.env, PORT: '0', SHIPGATE_RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info' });
const db = createKnex(config.databaseUrl!);
// As `npm start` logs (pino's own synchronous destination), to /dev/null instead of a terminal: a Node write stream would cost more than serving does.
const logger = createLogger(config.logLevel, pino.destination({ dest: '/dev/null', sync: true }));
const metrics = createMetrics();
const deps = buildDeps(config, db, logger, metrics, await loadServiceSigningKeys(config, db));
// As `npm start` mounts them: the GitHub webhook (deliveries queue jobs), the MCP gateway and the agent hooks, ahead of the body parsers.
await migrateJobQueue(db, config.databaseUrl!);
const mcp = buildMcpEndpoint(deps);
const app = createServer(deps, { metrics, rawBodyRoutes: [buildGitHubWebhook(deps), mcp, buildHookEndpoint(deps)] });
const worker =
  process.env.BENCH_SERVER_WORKER === '1'
    ? await startWorker({ ...deps, prices: loadPrices(config.providers.pricesFile) }, config.databaseUrl!)
    : undefined;
mountRoutes(app, [[floorRoute]], deps);
const server = http.createServer(app.callback());
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.send?.({ url: `http://127.0.0.1:${address.port}` });
});

/** Handlers of requests cut off when the load stopped still hold pool connections; let them finish. */
async function poolIdle(): Promise<void> {
  const pool = (db.client as { pool?: { numUsed(): number; numPendingAcquires(): number } }).pool;
  for (let i = 0; i < 200 && pool && pool.numUsed() + pool.numPendingAcquires() > 0; i++) await new Promise((r) => setTimeout(r, 25));
}

process.on('disconnect', () => {
  server.close(
    () =>
      void poolIdle()
        .then(() => mcp.close())
        .then(() => worker?.stop())
        .then(() => db.destroy())
        .then(() => process.exit(0)),
  );
  server.closeIdleConnections();
});
