import type { IncomingHttpHeaders } from 'node:http';

/** What a route handler gets: path parameters (decoded), the query, the parsed JSON body, the headers. */
export interface GitHubRouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingHttpHeaders;
}

/** JSON `body` by default; `text` answers a raw body (as the raw media type does). */
export interface GitHubReply {
  status?: number;
  body?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export interface GitHubRoute {
  method: string;
  /** GitHub's own notation: `/repos/{owner}/{repo}/contents/{path+}`; `{name+}` may span slashes. */
  pattern: string;
  handle(ctx: GitHubRouteContext): GitHubReply | Promise<GitHubReply>;
}

export interface CompiledRoute extends GitHubRoute {
  match(path: string): Record<string, string> | null;
}

export function compileRoute(route: GitHubRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.pattern.replace(/[.*?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)(\+?)\}/g, (_all, name: string, rest: string) => {
    names.push(name);
    return rest ? '(.+)' : '([^/]+)';
  });
  const regex = new RegExp(`^${source}$`);
  return {
    ...route,
    match(path) {
      const found = regex.exec(path);
      if (!found) return null;
      return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1])]));
    },
  };
}

/** GitHub's error body. */
export function gitHubError(status: number, message: string, docs = 'https://docs.github.com/rest'): GitHubReply {
  return { status, body: { message, documentation_url: docs, status: String(status) } };
}
