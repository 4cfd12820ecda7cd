import fc from 'fast-check';
import { allRoutes } from '../../api/all-routes.js';
import { API_PREFIX } from '../../api/mount-routes.js';
import { createTestApp } from '../support/test-app.js';
import { hostileRequest } from './support/hostile-request.js';
import { openApiOperations, schemaResolver, type OpenApiDocumentJson } from './support/openapi-operations.js';
import { responseProblem } from './support/response-problems.js';
import { sendHostileRequest } from './support/send-hostile-request.js';
import { shortReport } from './support/short-report.js';

// ARCHITECTURE.md, "Quality bars": no 500 for any input, over every operation the running server describes.
// FC_SEED replays a failure (the report names the seed and the failing request); FC_RUNS explores further.
const seed = Number(process.env.FC_SEED ?? 20_240_613);
const numRuns = Number(process.env.FC_RUNS ?? 30);

// Unsigned deliveries are taken (no secret known), so hostile payloads reach the webhook's parsing instead of stopping at 503.
const t = await createTestApp({ SHIPGATE_ALLOW_UNSIGNED_WEBHOOKS: 'true' });
afterAll(async () => {
  await t.close();
});

const document = (await t.request.get('/openapi.json')).body as OpenApiDocumentJson;
const operations = openApiOperations(document);
const resolve = schemaResolver(document);
// Resources that exist, so generated ids sometimes name one: an execution and the ADMIN.
const task = await t.request.post('/api/v1/tasks').set(t.admin.auth).send({ task: 'A target for generated requests.' });
const knownIds = [task.body.id as string | undefined, t.admin.id].filter((id): id is string => typeof id === 'string');

/** Every `method path` under /api/v1 of every router the app mounts, in OpenAPI path syntax. */
function mountedOperations(): string[] {
  const layers = t.app.middleware.flatMap((m) => (m as { router?: { stack: { methods: string[]; path: string }[] } }).router?.stack ?? []);
  return layers
    .filter((layer) => layer.path.startsWith(API_PREFIX))
    .flatMap((layer) =>
      layer.methods
        .filter((method) => method !== 'HEAD')
        .map((method) => `${method.toLowerCase()} ${layer.path.replace(/:(\w+)/g, '{$1}')}`),
    );
}

describe('/openapi.json covers what the server mounts', () => {
  it('describes every route of allRoutes and every route any router mounts, so the properties below reach all of them', () => {
    const described = operations.map((o) => `${o.method} ${o.path}`);
    const declared = allRoutes.flat().map((r) => `${r.method} ${API_PREFIX}${r.path}`);
    expect(described).toEqual(expect.arrayContaining(declared));
    expect(described).toEqual(expect.arrayContaining(mountedOperations()));
    expect(mountedOperations().length).toBeGreaterThanOrEqual(declared.length);
  });
});

describe('no 500 for any input', () => {
  it.each(operations.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const))(
    '%s',
    async (_name, operation) => {
      await fc.assert(
        fc.asyncProperty(hostileRequest(operation, resolve, knownIds), async (request) => {
          const res = await sendHostileRequest(t, request);
          const problem = responseProblem(res, operation.statuses);
          if (problem) throw new Error(problem);
        }),
        { seed, numRuns, reporter: shortReport },
      );
    },
  );
});
