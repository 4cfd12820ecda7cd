import Koa from 'koa';
import type { Counter, Histogram } from 'prom-client';
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
import { systemRoutes } from './system-routes.js';

export interface ServerOptions {
  /** The request counter and duration histogram (the composition root registers them). */
  metrics: { requests: Counter; duration: Histogram };
  /** Mounted before the API routes (which parse bodies): the GitHub webhook needs the raw body. */
  rawBodyMiddleware?: Koa.Middleware[];
  /** Check every 2xx JSON body strictly against its route's declared schema (the test app does). */
  checkResponses?: boolean;
}

/** The Koa application with every route; it does not listen (the caller or supertest does). */
export function createServer(deps: Deps, options: ServerOptions): Koa {
  const app = new Koa({ proxy: false });
  const document = buildOpenApiDocument(allRoutes);
  app.use(requestId());
  app.use(clientAddress(deps.config.trustProxy));
  app.use(requestLog(deps.logger, options.metrics.requests, options.metrics.duration));
  app.use(errorHandler(deps.logger));
  app.use(cors(deps.config.corsOrigins));
  for (const middleware of options.rawBodyMiddleware ?? []) app.use(middleware);
  const system = systemRoutes(deps, document);
  app.use(system.routes());
  app.use(studioRoutes().routes());
  mountRoutes(app, allRoutes, deps, { checkResponses: options.checkResponses });
  return app;
}
