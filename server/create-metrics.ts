import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  requests: Counter;
  duration: Histogram;
}

/** A registry per server instance, so tests can build several servers in one process. */
export function createMetrics(withDefaults = true): Metrics {
  const registry = new Registry();
  if (withDefaults) collectDefaultMetrics({ register: registry, prefix: 'shipgate_' });
  const requests = new Counter({
    name: 'shipgate_http_requests_total',
    help: 'HTTP requests',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'shipgate_http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // Read by name by the override routes (api/routers/release-override-routes.ts); docs/release-gate.md, "Overrides".
  new Counter({
    name: 'shipgate_release_overrides_total',
    help: 'Release overrides recorded (action=created) and revoked (action=revoked)',
    labelNames: ['action'],
    registers: [registry],
  });
  return { registry, requests, duration };
}
