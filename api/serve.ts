import http from 'node:http';
import type { Logger } from 'pino';
import { createSigningKeyStore } from '../db/stores/signing-key-store.js';
import { buildDeps } from './build-deps.js';
import type { Config } from './config.js';
import { createMetrics } from './create-metrics.js';
import { createServer } from './create-server.js';
import { loadSigningKey } from './load-signing-key.js';
import { openDatabase, type OpenDatabase } from './open-database.js';

export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

async function listen(config: Config, logger: Logger, database: OpenDatabase): Promise<http.Server> {
  const metrics = createMetrics();
  const signing = await loadSigningKey(config, createSigningKeyStore(database.db));
  const deps = buildDeps(config, database.db, logger, metrics, signing);
  const app = createServer(deps, { metrics });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  return server;
}

/** Starts the API (and, later, the worker) on one process; stop() drains and shuts down. */
export async function serve(config: Config, logger: Logger): Promise<RunningService> {
  const database = await openDatabase(config, logger);
  const server = await listen(config, logger, database).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host}:${port}`;
  return {
    url,
    async stop() {
      // Stop accepting, let in-flight requests finish (bounded), then release the database.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), 10_000);
      await closed;
      clearTimeout(force);
      await database.close();
    },
  };
}
