import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson, sendText, startHttpServer } from './fake-http.js';
import { accountByIdRoute } from './fake-github-account-route.js';
import { FakeGitHubOAuth, type WebReply } from './fake-github-oauth.js';
import { repoRoutes } from './fake-github-repo-routes.js';
import { FakeRepos } from './fake-github-repos.js';
import { FakeGitHubApp } from './fake-github-app-routes.js';
import { FakeGitHubDeployments } from './fake-github-deployment-routes.js';
import { FakeGitHubManifests } from './fake-github-manifest-routes.js';
import { compileRoute, gitHubError, type CompiledRoute, type GitHubReply, type GitHubRoute } from './fake-github-route.js';
import { checkGitHubAnswer, checkGitHubRequest } from './github-conformance.js';

export type { CommitSpec } from './fake-github-repos.js';
export type { GitHubReply, GitHubRoute, GitHubRouteContext } from './fake-github-route.js';
export { gitHubError } from './fake-github-route.js';

/** GitHub Enterprise serves the REST API under this prefix; GHE_HOST clients call it there. */
const API_PREFIX = '/api/v3';

export interface GitHubRequest {
  method: string;
  /** Without /api/v3, e.g. /repos/acme/app/contents/README.md. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
  status: number | null;
}

export interface FakeGitHub {
  /** http://127.0.0.1:PORT/api/v3: an octokit baseUrl. */
  baseUrl: string;
  /** 127.0.0.1:PORT: use as GHE_HOST with GHE_PROTOCOL=http. */
  host: string;
  repos: FakeRepos;
  /** Comments, check runs, permissions, pull requests, installations; and injected failures. */
  app: FakeGitHubApp;
  /** Deployment protection rule reviews; the App's deliveries, installations' repositories and pull request lists. */
  deployments: FakeGitHubDeployments;
  /** The manifest flow: Apps created from a manifest, and the code conversion. */
  manifests: FakeGitHubManifests;
  /** "Sign in with GitHub": the OAuth web pages (outside the REST API), users, organisations and their members. */
  oauth: FakeGitHubOAuth;
  requests: GitHubRequest[];
  /** When set, requests must carry `Authorization: token|Bearer <this>` or get 401 Bad credentials. */
  expectedToken: string | undefined;
  /**
   * Returns and forgets what GitHub's REST description did not allow so far (requests and answers),
   * for a test that provokes a violation on purpose; any violation not taken fails the test.
   */
  takeViolations(): string[];
  /** Adds (or, for the same method and pattern, replaces) an endpoint, e.g. for issue comments or check runs. */
  route(route: GitHubRoute): void;
  /** Service configuration pointing GitHub calls here, e.g. createTestApp(gh.env()). */
  env(): Record<string, string>;
  /** Stops the server; throws if GitHub's description was violated since the last check. */
  close(): Promise<void>;
}

/** Fakes started and not yet closed, whose violations the hook below reports. */
const open = new Set<FakeGitHub>();

/** The running fake GitHub at `host` (GHE_HOST), if any: test helpers keep it in step with the deliveries they send. */
export function fakeGitHubAt(host: string | undefined): FakeGitHub | undefined {
  return [...open].find((gh) => gh.host === host);
}

/** Throws one error listing every violation not yet taken, so a test cannot pass over one. */
function throwIfViolated(fakes: Iterable<FakeGitHub>): void {
  const violations = [...fakes].flatMap((gh) => gh.takeViolations());
  if (violations.length === 0) return;
  throw new Error(
    `The fake GitHub saw ${violations.length} exchange(s) GitHub's REST description (@octokit/openapi, api.github.com) ` +
      `does not allow:\n${violations.map((v) => `- ${v}`).join('\n')}`,
  );
}

// Importing this module from a test file registers, at the file's top level, a check after each
// of its tests: the test during which the fake saw a violation fails, with the reasons.
if (typeof afterEach === 'function') afterEach(() => throwIfViolated(open));

/**
 * A fake GitHub REST API with in-memory repositories. Endpoints are a small route table, so a
 * test or a later fake module adds issues, comments or check runs with `route(...)`.
 *
 * It speaks GitHub's REST description (`github-conformance.ts`): every request is checked against
 * the operation GitHub would route it to (method and path template with /api/v3 stripped, path and
 * query parameters, the JSON body with its enums and limits), and every answer, the routes' and
 * injected failures alike, against that operation's response for its status. A request GitHub
 * would refuse gets GitHub's answer (404 for no such operation, 422 `Invalid request.` with the
 * reasons), so the client sees what GitHub would do; an answer the fake got wrong is sent as it
 * is. Either way the violation is recorded with the test it happened in, and fails that test from
 * an `afterEach` this module registers (and `close()`, for requests made outside a test), with a
 * message listing each one. A test that provokes one on purpose asserts it with `takeViolations()`.
 * Not a 500 with the reason: the App logs and retries or drops a failed write, so a test could
 * still pass; the hook fails it whatever the client did. Outside jest (bench/) only close() does.
 */
export async function startFakeGitHub(options: { token?: string } = {}): Promise<FakeGitHub> {
  const routes: CompiledRoute[] = [];
  let violations: string[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : null;
    const text = await readBody(req);
    const body = parseJson(text);
    const request: GitHubRequest = {
      method: req.method ?? 'GET',
      path: path ?? url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      status: null,
    };
    fake.requests.push(request);
    const web = path === null ? webPage(request.method, url, text, req.headers['content-type']) : undefined;
    if (web) {
      request.status = web.status;
      if (web.body === undefined) res.writeHead(web.status, web.headers).end();
      else sendJson(res, web.status, web.body, web.headers);
      return;
    }
    const checked =
      path === null
        ? { described: undefined, operation: 'none', problems: [`outside ${API_PREFIX}, where GitHub Enterprise serves the REST API`] }
        : checkGitHubRequest(request.method, path, url.searchParams, body);
    const record = (what: string, problems: string[]) => {
      if (problems.length === 0) return;
      const test = typeof expect === 'function' ? expect.getState().currentTestName : undefined;
      const exchange = `${what} ${request.method} ${url.pathname}${url.search} (operation ${checked.operation})`;
      violations.push(`${exchange}${test ? ` during "${test}"` : ''}:${problems.map((p) => `\n    ${p}`).join('')}`);
    };
    record('request', checked.problems);
    const sentToken = req.headers.authorization?.replace(/^(token|bearer)\s+/i, '');
    // The newest route wins, so an added endpoint is never shadowed by a broader built-in pattern.
    const found =
      path === null
        ? undefined
        : [...routes]
            .reverse()
            .map((r) => ({ route: r, params: r.method === request.method ? r.match(path) : null }))
            .find((m) => m.params);
    const injected = path === null ? undefined : fake.app.injected(request.method, path);
    const reply: GitHubReply = injected
      ? injected
      : fake.expectedToken !== undefined && sentToken !== fake.expectedToken
        ? gitHubError(401, 'Bad credentials')
        : body instanceof Error
          ? gitHubError(400, 'Problems parsing JSON')
          : !found || !checked.described
            ? gitHubError(404, 'Not Found')
            : checked.problems.length
              ? gitHubError(422, `Invalid request.\n\n${checked.problems.join('\n')}`)
              : await found.route.handle({ params: found.params!, query: url.searchParams, body, headers: req.headers });
    request.status = reply.status ?? 200;
    if (checked.described) record(`answer ${request.status} to`, checkGitHubAnswer(checked.described, request.status, reply));
    if (reply.text !== undefined) sendText(res, request.status, reply.text);
    else if (reply.status === 204) res.writeHead(204, reply.headers).end();
    else sendJson(res, request.status, reply.body ?? {}, reply.headers);
  }

  /** GitHub's web pages of the OAuth flow: not REST operations, so not held to the description. */
  function webPage(method: string, url: URL, text: string, contentType: string | undefined): WebReply | undefined {
    if (method === 'GET' && url.pathname === '/login/oauth/authorize') return fake.oauth.authorize(url.searchParams);
    if (method !== 'POST' || url.pathname !== '/login/oauth/access_token') return undefined;
    const json = contentType?.includes('json') ? parseJson(text) : undefined;
    const params =
      json && typeof json === 'object' && !(json instanceof Error)
        ? new URLSearchParams(Object.entries(json as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)]))
        : new URLSearchParams(text);
    for (const [k, v] of url.searchParams) if (!params.has(k)) params.set(k, v);
    return fake.oauth.accessToken(params);
  }

  const server = await startHttpServer(handle);
  const app = new FakeGitHubApp();
  const fake: FakeGitHub = {
    baseUrl: `${server.url}${API_PREFIX}`,
    host: server.host,
    repos: new FakeRepos(),
    app,
    deployments: new FakeGitHubDeployments(),
    manifests: new FakeGitHubManifests(app),
    oauth: new FakeGitHubOAuth(),
    requests: [],
    expectedToken: options.token,
    route(route) {
      const same = routes.findIndex((r) => r.method === route.method && r.pattern === route.pattern);
      if (same >= 0) routes.splice(same, 1);
      routes.push(compileRoute(route));
    },
    env: () => ({ GHE_HOST: server.host, GHE_PROTOCOL: 'http', GITHUB_TOKEN: fake.expectedToken ?? 'ghp_fake_github_token' }),
    takeViolations() {
      const taken = violations;
      violations = [];
      return taken;
    },
    async close() {
      open.delete(fake);
      await server.close();
      throwIfViolated([fake]);
    },
  };
  open.add(fake);
  for (const route of fake.app.routes(fake.repos, () => fake.baseUrl)) fake.route(route);
  for (const route of repoRoutes(fake.repos, () => fake.baseUrl)) fake.route(route);
  for (const route of fake.deployments.routes(fake.app, () => fake.baseUrl)) fake.route(route);
  for (const route of fake.manifests.routes(() => fake.baseUrl)) fake.route(route);
  for (const route of fake.oauth.routes(fake.app, () => fake.baseUrl)) fake.route(route);
  fake.route(
    accountByIdRoute(
      () => fake.oauth.users.values(),
      () => fake.baseUrl,
    ),
  );
  return fake;
}

/** The body parsed as JSON, `undefined` for an empty body, or an Error for malformed JSON. */
function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    return error as Error;
  }
}
