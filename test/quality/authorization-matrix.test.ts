import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { allRoutes } from '../../api/all-routes.js';
import { API_PREFIX } from '../../api/mount-routes.js';
import type { RouteDef } from '../../api/route.js';
import { ROLES, type Role } from '../../core/accounts/roles.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { startFakeOidcIssuer, type FakeOidcIssuer } from '../fakes/fake-oidc-issuer.js';
import { admitted, DESIGN_AUTH, DESIGN_WORKFLOWS, designKey } from './support/design-auth-table.js';
import { freshKey } from './support/fresh-key.js';
import { OWNED_KINDS, type OwnedKind } from './support/owned-resources.js';

// ARCHITECTURE.md, "Quality bars": every route × every role × no key, expectations derived from each RouteDef's auth.
const routes = allRoutes.flat();
const name = (route: RouteDef) => `${route.method.toUpperCase()} ${route.path}`;

let t: TestApp;
let issuer: FakeOidcIssuer;
const users = {} as Record<Role, TestUser>;
beforeAll(async () => {
  issuer = await startFakeOidcIssuer('acme/widgets');
  t = await createTestApp({ SHIPGATE_OIDC_ISSUERS: issuer.url, SHIPGATE_OIDC_OWNERS: 'acme' });
  for (const role of ROLES) users[role] = await t.user(role);
  // The upstream an OIDC caller's agent session names (registration does not contact it).
  await t.request
    .post(`${API_PREFIX}/mcp/servers`)
    .set(users.ADMIN.auth)
    .send({ name: 'matrix-upstream', url: 'http://127.0.0.1:9/mcp' })
    .expect(201);
});
afterAll(async () => {
  await t.close();
  await issuer.close();
});

/** The route with every path parameter an id nobody has: no body, no query. Only auth is under test. */
function send(route: RouteDef, headers: Record<string, string> = {}): Promise<Response> {
  const path = route.path.replace(/\{[^}]+\}/g, () => randomUUID());
  return t.request[route.method](`${API_PREFIX}${path}`).set(headers);
}

const summary = (res: Response) => `${res.status} ${res.text?.slice(0, 200)}`;

describe('every route × every role × no key', () => {
  it.each(routes.map((route) => [name(route), route] as const))('%s', async (_name, route) => {
    const auth = admitted(route.auth);
    if (auth === 'public') {
      expect(summary(await send(route))).not.toMatch(/^40[13] /);
      return;
    }
    const anonymous = await send(route);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ detail: 'Missing API key.' });
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    const forged = await send(route, { Authorization: 'Bearer sg_forged-key-nobody-was-given' });
    expect([forged.status, forged.body]).toEqual([401, { detail: 'Invalid API key.' }]);

    for (const role of ROLES) {
      const res = await send(route, await freshKey(t, users[role].id));
      if (auth.includes(role)) {
        expect(`${role}: ${summary(res)}`).not.toMatch(/^\w+: 40[13] /);
      } else {
        expect(`${role}: ${summary(res)}`).toBe(
          `${role}: 403 ${JSON.stringify({ detail: `Requires one of: ${(route.auth as Role[]).join(', ')}` })}`,
        );
      }
    }
  });
});

describe('every route × a GitHub Actions OIDC caller (a workflow of acme/widgets)', () => {
  const commit = 'a'.repeat(40);
  const target = (route: RouteDef, repo: string) =>
    route.path.endsWith('/hooks')
      ? { query: { agent: 'claude-code' }, body: undefined }
      : route.method === 'get'
        ? { query: { repo_root: repo, commit_sha: commit }, body: undefined }
        : route.path === '/agent-sessions'
          ? { query: {}, body: { name: 'matrix', repo_root: repo, servers: ['matrix-upstream'] } }
          : {
              query: {},
              body: {
                repo_root: repo,
                commit_sha: commit,
                kind: 'sbom',
                name: 'sbom',
                status: 'passed',
                produced_at: new Date().toISOString(),
              },
            };

  /** A route about one agent session is judged by that session's repository: one is opened there for it. */
  const pathFor = async (route: RouteDef, repo: string) => {
    if (!route.path.includes('{session_id}')) return route.path;
    const opened = await t.request
      .post(`${API_PREFIX}/agent-sessions`)
      .set(users.ADMIN.auth)
      .send({ name: 'matrix', repo_root: repo })
      .expect(201);
    return route.path.replace('{session_id}', opened.body.id as string);
  };

  it('admits exactly the routes the design lists', () => {
    const declared = Object.fromEntries(
      routes.filter((r) => r.workflows).map((r) => [designKey(r.method, r.path), r.workflows!.permission]),
    );
    expect(declared).toEqual(DESIGN_WORKFLOWS);
  });

  it.each(routes.filter((r) => r.auth !== 'public').map((route) => [name(route), route] as const))('%s', async (_name, route) => {
    // A token of the run that built `commit`: a workflow records evidence only for what it built (docs/release-gate.md).
    const headers = { Authorization: `Bearer ${await issuer.sign('acme/widgets', { sha: commit })}` };
    if (!route.workflows) {
      const res = await send(route, headers);
      expect(summary(res)).toBe(
        `403 ${JSON.stringify({ detail: 'A GitHub Actions OIDC token may only read the release decision of, record evidence for, and open agent sessions for, its own repository.' })}`,
      );
      return;
    }
    const as = async (repo: string) => {
      const { query, body } = target(route, repo);
      return t.request[route.method](`${API_PREFIX}${await pathFor(route, repo)}`)
        .query(query)
        .set(headers)
        .send(body);
    };
    expect(summary(await as('acme/widgets'))).toMatch(/^20[01] /);
    expect(summary(await as('acme/gadgets'))).toMatch(/^403 .*repository.{0,3} claim is acme\/widgets: it may only/);
    for (const forged of [
      await issuer.sign('acme/widgets', { aud: 'other' }),
      await issuer.sign('acme/widgets', {}, { foreignKey: true }),
    ]) {
      const { query, body } = target(route, 'acme/widgets');
      const res = await t.request[route.method](`${API_PREFIX}${await pathFor(route, 'acme/widgets')}`)
        .query(query)
        .set({ Authorization: `Bearer ${forged}` })
        .send(body);
      expect(summary(res)).toMatch(/^401 .*OIDC token refused/);
    }
  });
});

describe('who may do what (the "Roles" table of docs/api.md)', () => {
  const named = routes.filter((route) => designKey(route.method, route.path) in DESIGN_AUTH);

  it('is what the mounted routes declare, for every route it names that is mounted', () => {
    const declared = Object.fromEntries(named.map((r) => [name(r), admitted(r.auth)]));
    const designed = Object.fromEntries(named.map((r) => [name(r), admitted(DESIGN_AUTH[designKey(r.method, r.path)])]));
    expect(declared).toEqual(designed);
    // The seed's three release reads and the public trio are mounted today; the table is not vacuous.
    expect(named.map(name)).toEqual(
      expect.arrayContaining([
        'GET /releases/decision',
        'GET /releases/health',
        'GET /releases/promotions',
        'GET /trust/badge',
        'GET /compliance/presets',
        'GET /compliance/keys',
      ]),
    );
  });
});

describe.each(
  OWNED_KINDS.filter((kind) => routes.some((r) => r.method === 'post' && r.path === kind.create.path)).map(
    (kind) => [kind.param, kind] as const,
  ),
)('resources named by {%s}: owner and non-owner', (_param, kind: OwnedKind) => {
  const SEE_ALL: Role[] = ['ADMIN', 'AUDITOR'];
  const strangers = ROLES.filter((role) => !SEE_ALL.includes(role));
  const routesOf = (method: string) => routes.filter((r) => r.method === method && r.path.includes(`{${kind.param}}`));
  const at = (route: RouteDef, id: string) => `${API_PREFIX}${route.path.replace(`{${kind.param}}`, id)}`;
  let owner: TestUser;
  const create = async () => {
    const res = await t.request.post(`${API_PREFIX}${kind.create.path}`).set(owner.auth).send(kind.create.body);
    expect(summary(res)).toMatch(/^201 /);
    return res.body.id as string;
  };
  beforeAll(async () => {
    owner = await t.user('OPERATOR');
  });

  it.each(routesOf('get').map((route) => [name(route), route] as const))(
    '%s: the owner, ADMIN and AUDITOR read it; anyone else gets the 404 of an unknown id',
    async (_n, route) => {
      const id = await create();
      const by = async (user: TestUser, target = id) => t.request.get(at(route, target)).set(await freshKey(t, user.id));
      expect(summary(await by(owner))).toMatch(/^200 /);
      for (const role of SEE_ALL) expect(`${role}: ${summary(await by(users[role]))}`).toMatch(new RegExp(`^${role}: 200 `));
      for (const role of strangers) {
        const [hidden, unknown] = [await by(users[role]), await by(users[role], randomUUID())];
        expect(`${role}: ${summary(hidden)}`).toBe(`${role}: 404 ${JSON.stringify(unknown.body)}`);
      }
    },
  );

  it.each(routesOf('delete').map((route) => [name(route), route] as const))(
    '%s: only the owner and ADMIN cancel it; nobody else changes it',
    async (_n, route) => {
      const [mine, adminCancels] = [await create(), await create()];
      const read = async (target: string) => (await t.request.get(`${API_PREFIX}${kind.list}/${target}`).set(owner.auth)).body;
      const before = await read(mine);
      const by = async (user: TestUser, target: string) => t.request.delete(at(route, target)).set(await freshKey(t, user.id));
      for (const role of strangers) expect(`${role}: ${(await by(users[role], mine)).status}`).toBe(`${role}: 404`);
      expect(kind.auditorCancel).toContain((await by(users.AUDITOR, mine)).status);
      expect(await read(mine)).toEqual(before);
      expect(summary(await by(users.ADMIN, adminCancels))).toMatch(/^200 /);
      expect((await read(adminCancels)).status).toBe('cancelled');
      expect(summary(await by(owner, mine))).toMatch(/^200 /);
      expect((await read(mine)).status).toBe('cancelled');
    },
  );

  it(`GET ${kind.list} lists it for its owner only`, async () => {
    const id = await create();
    const ids = async (user: TestUser) =>
      ((await t.request.get(`${API_PREFIX}${kind.list}`).set(user.auth)).body as { id: string }[]).map((r) => r.id);
    expect(await ids(owner)).toContain(id);
    for (const role of ROLES) expect(await ids(users[role])).not.toContain(id);
  });
});
