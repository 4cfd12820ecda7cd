import Koa from 'koa';
import type { Counter, Histogram } from 'prom-client';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { allRoutes } from './all-routes.js';
import type { Deps } from './deps.js';
import { clientAddress } from './middleware/client-address.js';
import { cors } from './middleware/cors.js';
import { errorHandler } from './middleware/error-handler.js';
import { requestId } from './middleware/request-id.js';
import { requestLog } from './middleware/request-log.js';
import { mountRoutes } from './mount-routes.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { studioRoutes } from './studio-routes.js';
import { githubWebUrl } from '../core/github/app-manifest.js';
import { systemRoutes } from './system-routes.js';

/**
 * A route served by its own middleware ahead of the body parsers (the GitHub webhook: its
 * signature covers the raw bytes), with its entry for /openapi.json written beside it.
 */
export interface RawBodyRoute {
  middleware: Koa.Middleware;
  /** `{path: {method: operation}}`, the full path as served. */
  openapi: ZodOpenApiPathsObject;
}

export interface ServerOptions {
  /** The request counter and duration histogram (the composition root registers them). */
  metrics: { requests: Counter; duration: Histogram };
  /** Mounted before the API routes (which parse bodies), and described in /openapi.json. */
  rawBodyRoutes?: RawBodyRoute[];
  /** Check every 2xx JSON body strictly against its route's declared schema (the test app does). */
  checkResponses?: boolean;
}

/** The Koa application with every route; it does not listen (the caller or supertest does). */
export function createServer(deps: Deps, options: ServerOptions): Koa {
  const app = new Koa({ proxy: false });
  const rawBodyRoutes = options.rawBodyRoutes ?? [];
  const document = buildOpenApiDocument(allRoutes, Object.assign({}, ...rawBodyRoutes.map((route) => route.openapi)));
  app.use(requestId());
  app.use(clientAddress(deps.config.trustProxy));
  app.use(requestLog(deps.logger, options.metrics.requests, options.metrics.duration));
  app.use(errorHandler(deps.logger));
  app.use(cors(deps.config.corsOrigins));
  for (const route of rawBodyRoutes) app.use(route.middleware);
  const system = systemRoutes(deps, document);
  app.use(system.routes());
  app.use(studioRoutes(undefined, [githubWebUrl(deps.config.github)]).routes());
  mountRoutes(app, allRoutes, deps, { checkResponses: options.checkResponses });
  return app;
}
