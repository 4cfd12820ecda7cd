import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { API_PREFIX } from './mount-routes.js';
import { API_TAGS } from './openapi-tags.js';
import type { ResponseHeader, ResponseSpec, RouteDef } from './route.js';
import { errorSchema, validationErrorSchema } from './schemas/error-schemas.js';
import { retryAfterHeader } from './schemas/header-schemas.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed JSON body.',
  401: 'Missing, invalid or revoked API key.',
  403: "The caller's role does not allow this, or the account is deactivated.",
  404: 'Unknown id, or a resource the caller may not see.',
  413: 'Body over 1 MiB.',
  415: 'Body is not application/json.',
  422: 'Validation failed; detail lists each problem as {loc, msg, type}.',
  429: 'Rate limited; see Retry-After.',
  500: 'Internal server error (detail and request_id only).',
  503: 'Database unavailable.',
};

/** What the repository-access check adds to a route's errors (docs/api.md, "Repository access"). */
const REPO_ACCESS_TEXT: Record<number, string> = {
  403: "The caller's role does not allow this, the account is deactivated, or GitHub's permission on the repository is not enough (the detail names it).",
  404: 'Unknown id, or a repository the caller cannot read on GitHub.',
  503: 'Database unavailable, or GitHub did not answer the permission lookup.',
};

const ERROR_HEADERS: Record<number, Record<string, ResponseHeader>> = { 429: retryAfterHeader, 503: retryAfterHeader };

/** Header objects with their schemas (zod-openapi sets `required` unless the schema is optional). */
function headers(declared: Record<string, ResponseHeader> | undefined) {
  if (!declared) return undefined;
  const shape = Object.entries(declared).map(([name, h]) => [name, h.schema.meta({ header: { description: h.description } })]);
  return z.object(Object.fromEntries(shape));
}

function content(spec: ResponseSpec) {
  if (!spec.schema) return undefined;
  return { [spec.contentType ?? 'application/json']: { schema: spec.schema } };
}

function errorStatuses(route: RouteDef): number[] {
  const statuses = [429, 500, 503];
  if (route.auth !== 'public') statuses.push(401, 403);
  if (route.body) statuses.push(400, 413, 415);
  if (route.body || route.query || route.params) statuses.push(422);
  // A repository the caller cannot read on GitHub answers 404 (docs/api.md, "Repository access").
  if (route.params || route.repoAccess) statuses.push(404);
  return [...new Set([...statuses, ...Object.keys(route.errors ?? {}).map(Number)])].sort();
}

/** An error status as the error handler answers it: `{detail}` (422: the issues), Retry-After on 429 and 503. */
export function errorResponse(status: number, description = ERROR_TEXT[status] ?? 'Error.') {
  return {
    description,
    content: { 'application/json': { schema: status === 422 ? validationErrorSchema : errorSchema } },
    headers: headers(ERROR_HEADERS[status]),
  };
}

/**
 * Separators and the word character after them, which becomes upper case (`/releases/github-webhook`
 * -> `ReleasesGithubWebhook`). Only from the first separator of a run: from every one, a long run
 * not followed by a word character was quadratic (docs/operations.md, "Regular expressions").
 */
const SEPARATORS_BEFORE_WORD = /(?<![/_-])[/_-]+(\w)/g;

/** A route's operationId: its method and its path in camel case, without the braces (`get` `/users/{id}` -> `getUsersId`). */
export function operationId(route: Pick<RouteDef, 'method' | 'path'>): string {
  return `${route.method}${route.path.replace(/[{}]/g, '').replace(SEPARATORS_BEFORE_WORD, (_, c: string) => c.toUpperCase())}`;
}

function operation(route: RouteDef) {
  const responses: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    responses[status] = { description: spec.description, content: content(spec), headers: headers(spec.headers) };
  }
  for (const status of errorStatuses(route))
    responses[String(status)] = errorResponse(status, route.errors?.[status] ?? (route.repoAccess ? REPO_ACCESS_TEXT[status] : undefined));
  return {
    summary: route.summary,
    description: route.description,
    tags: [...route.tags],
    operationId: operationId(route),
    security: route.auth === 'public' ? [] : [{ bearer: [] }, { apiKeyHeader: [] }],
    requestParams: {
      ...(route.params ? { path: route.params as z.ZodObject } : {}),
      ...(route.query ? { query: route.query as z.ZodObject } : {}),
    },
    requestBody: route.body ? { required: true, content: { 'application/json': { schema: route.body } } } : undefined,
    responses,
  };
}

/** OpenAPI 3.1 from the very route definitions the server mounts. */
export function buildOpenApiDocument(routeGroups: RouteDef[][], extraPaths: Record<string, unknown> = {}) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routeGroups.flat()) {
    const key = `${API_PREFIX}${route.path}`;
    paths[key] = { ...paths[key], [route.method]: operation(route) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'shipgate',
      version: '1.0.0',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      contact: { name: 'shipgate', url: 'https://github.com/shipgate/shipgate' },
      description:
        'Release gate for teams that let LLM agents take part in shipping software. Errors are always `{"detail": ...}`. Lists are bare JSON arrays, newest first; the next page is in the `Link: <...>; rel="next"` header.',
    },
    servers: [{ url: '/' }],
    tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Authorization: Bearer <API key>. On routes that say so, also a GitHub Actions OIDC token (its own repository only; see the README, "Keyless").',
        },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
    },
    paths: { ...paths, ...extraPaths } as never,
  });
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
