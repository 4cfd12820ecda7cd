import http from 'node:http';
import { answerClientError, REQUEST_TIMEOUT_MS } from './answer-client-error.js';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { buildDeps, loadServiceSigningKeys } from './build-deps.js';
import type { Config } from '../core/config.js';
import { createMetrics } from './create-metrics.js';
import { createServer } from '../api/create-server.js';
import { loadPrices } from './load-prices.js';
import { openDatabase } from './open-database.js';
import { startWorker, type RunningWorker } from '../worker/start-worker.js';
import { buildGitHubWebhook } from './github-app.js';
import { buildMcpEndpoint, type McpEndpoint } from '../api/mcp/mcp-endpoint.js';
import { buildHookEndpoint } from '../api/hooks/hook-endpoint.js';
import { sweepMcpSessions } from './sweep-mcp-sessions.js';
import { warnAccountsLimitedToPublic } from './warn-accounts-limited-to-public.js';

export interface RunningService {
  /** Where the API listens, with the real port when PORT=0 asked for any free one. */
  url: string;
  /** Which database it uses, for the banner (see OpenDatabase). */
  database: string[];
  stop(): Promise<void>;
}

/** In-flight requests get this long to finish after stop() before their connections are cut. */
const DRAIN_MS = 10_000;

function listen(server: http.Server, config: Config): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve(server.address() as AddressInfo));
  });
}

function urlOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** The default public URL names PORT; with PORT=0 it must name the port actually chosen. */
function withRealPort(config: Config, port: number): Config {
  const publicUrl = new URL(config.publicUrl);
  if (publicUrl.port !== '0') return config;
  publicUrl.port = String(port);
  return { ...config, publicUrl: publicUrl.toString().replace(/\/$/, '') };
}

export interface ServeOptions {
  /** Run queued jobs in this process too (default); `serve --no-worker` leaves them to `shipgate worker`. */
  worker?: boolean;
}

/**
 * Starts the API, and unless told otherwise a job worker, on one process (migrating first);
 * stop() drains requests and hands running jobs back, then closes the database.
 */
export async function serve(config: Config, logger: Logger, { worker: withWorker = true }: ServeOptions = {}): Promise<RunningService> {
  const database = await openDatabase(config, logger);
  const server = http.createServer({ requestTimeout: REQUEST_TIMEOUT_MS });
  server.on('clientError', answerClientError);
  let worker: RunningWorker | undefined;
  let mcp: McpEndpoint | undefined;
  let stopSweeping = () => {};
  try {
    // Before listening: nothing may be served until certificates can be signed.
    const signing = await loadServiceSigningKeys(config, database.db);
    const address = await listen(server, config);
    const metrics = createMetrics();
    const deps = buildDeps(withRealPort(config, address.port), database.db, logger, metrics, signing);
    // Synchronous from the listen callback to here, so no request can arrive before the handler.
    mcp = buildMcpEndpoint(deps);
    stopSweeping = sweepMcpSessions(mcp, logger);
    server.on(
      'request',
      createServer(deps, { metrics, rawBodyRoutes: [buildGitHubWebhook(deps), mcp, buildHookEndpoint(deps)] }).callback(),
    );
    if (withWorker) worker = await startWorker({ ...deps, prices: loadPrices(config.providers.pricesFile) }, database.url);
    const url = urlOf(address);
    logger.info({ url }, 'listening');
    await warnAccountsLimitedToPublic(deps);
    return {
      url,
      database: database.description,
      async stop() {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // A keep-alive connection that finishes its request after close() is not idle yet; sweep again.
        const sweep = setInterval(() => server.closeIdleConnections(), 100);
        const force = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
        await Promise.all([closed, worker?.stop()]);
        clearInterval(sweep);
        clearTimeout(force);
        // MCP sessions live in this process: their upstream client sessions end with it.
        stopSweeping();
        await mcp?.close();
        // Every upload has been answered (drained above), so no parse is running: its threads exit.
        await deps.evidenceParser.close();
        await deps.gateFiles.close();
        await database.close();
        logger.info('stopped');
      },
    };
  } catch (error) {
    server.close();
    stopSweeping();
    await mcp?.close();
    await worker?.stop();
    await database.close();
    throw error;
  }
}

/** `shipgate worker`: only the job worker (migrating first); stop() hands running jobs back and closes the database. */
export async function serveWorker(config: Config, logger: Logger): Promise<{ stop(): Promise<void> }> {
  const database = await openDatabase(config, logger);
  try {
    const signing = await loadServiceSigningKeys(config, database.db);
    const deps = buildDeps(config, database.db, logger, createMetrics(), signing);
    const worker = await startWorker({ ...deps, prices: loadPrices(config.providers.pricesFile) }, database.url);
    return {
      async stop() {
        await worker.stop();
        await deps.gateFiles.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
