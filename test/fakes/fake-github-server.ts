import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { readJson, sendJson, sendText, startHttpServer } from './fake-http.js';
import { repoRoutes } from './fake-github-repo-routes.js';
import { FakeRepos } from './fake-github-repos.js';
import { FakeGitHubApp } from './fake-github-app-routes.js';
import { FakeGitHubDeployments } from './fake-github-deployment-routes.js';
import { compileRoute, gitHubError, type CompiledRoute, type GitHubRoute } from './fake-github-route.js';

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
  requests: GitHubRequest[];
  /** When set, requests must carry `Authorization: token|Bearer <this>` or get 401 Bad credentials. */
  expectedToken: string | undefined;
  /** Adds (or, for the same method and pattern, replaces) an endpoint, e.g. for issue comments or check runs. */
  route(route: GitHubRoute): void;
  /** Service configuration pointing GitHub calls here, e.g. createTestApp(gh.env()). */
  env(): Record<string, string>;
  close(): Promise<void>;
}

/**
 * A fake GitHub REST API with in-memory repositories. Endpoints are a small route table, so a
 * test or a later fake module adds issues, comments or check runs with `route(...)`.
 */
export async function startFakeGitHub(options: { token?: string } = {}): Promise<FakeGitHub> {
  const routes: CompiledRoute[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : null;
    const body = await readJson(req);
    const request: GitHubRequest = {
      method: req.method ?? 'GET',
      path: path ?? url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      status: null,
    };
    fake.requests.push(request);
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
    const reply = injected
      ? injected
      : fake.expectedToken !== undefined && sentToken !== fake.expectedToken
        ? gitHubError(401, 'Bad credentials')
        : body instanceof Error
          ? gitHubError(400, 'Problems parsing JSON')
          : found
            ? await found.route.handle({ params: found.params!, query: url.searchParams, body, headers: req.headers })
            : gitHubError(404, 'Not Found');
    request.status = reply.status ?? 200;
    if (reply.text !== undefined) sendText(res, request.status, reply.text);
    else if (reply.status === 204) res.writeHead(204, reply.headers).end();
    else sendJson(res, request.status, reply.body ?? {}, reply.headers);
  }

  const server = await startHttpServer(handle);
  const fake: FakeGitHub = {
    baseUrl: `${server.url}${API_PREFIX}`,
    host: server.host,
    repos: new FakeRepos(),
    app: new FakeGitHubApp(),
    deployments: new FakeGitHubDeployments(),
    requests: [],
    expectedToken: options.token,
    route(route) {
      const same = routes.findIndex((r) => r.method === route.method && r.pattern === route.pattern);
      if (same >= 0) routes.splice(same, 1);
      routes.push(compileRoute(route));
    },
    env: () => ({ GHE_HOST: server.host, GHE_PROTOCOL: 'http', GITHUB_TOKEN: fake.expectedToken ?? 'ghp_fake_github_token' }),
    close: () => server.close(),
  };
  for (const route of fake.app.routes(fake.repos, () => fake.baseUrl)) fake.route(route);
  for (const route of repoRoutes(fake.repos, () => fake.baseUrl)) fake.route(route);
  for (const route of fake.deployments.routes(fake.app, () => fake.baseUrl)) fake.route(route);
  return fake;
}
