import Router from '@koa/router';
import type Koa from 'koa';
import type { z } from 'zod';
import { ValidationError } from '../core/errors.js';
import type { Deps } from './deps.js';
import { authorizeWorkflow } from '../core/accounts/oidc.js';
import { authenticate } from './middleware/authenticate.js';
import { authenticateWorkflowToken } from './middleware/authenticate-workflow.js';
import { readJsonBody } from './middleware/json-body.js';
import { checkResponseContract } from './response-contract.js';
import type { RouteDef } from './route.js';
import { validationIssues } from './validation-issues.js';

export const API_PREFIX = '/api/v1';

function parse<T>(schema: z.ZodType<T> | undefined, value: unknown, location: 'body' | 'query' | 'path', reportedAsRoot?: string): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(validationIssues(result.error, location, reportedAsRoot));
  return result.data;
}

/**
 * Koa path syntax from the OpenAPI path: `/a/{id}` -> `/a/:id`. A parameter's name holds no brace,
 * so a `{` ends the search for a `}` (linear; docs/operations.md, "Regular expressions").
 */
export function koaPath(path: string): string {
  return path.replace(/\{([^{}]+)\}/g, ':$1');
}

export interface MountOptions {
  /**
   * Parse every 2xx JSON body strictly against the route's declared response schema and answer 500
   * with the reason when it does not match (tests turn this on; see api/response-contract.ts).
   */
  checkResponses?: boolean;
}

function handle(route: RouteDef, deps: Deps, options: MountOptions): Koa.Middleware {
  return async (ctx) => {
    await respond(route, deps, ctx);
    if (!options.checkResponses) return;
    const violation = checkResponseContract(route, ctx.status, ctx.body);
    if (!violation) return;
    deps.logger.error({ request_id: ctx.state.requestId, violation }, 'response contract violated');
    ctx.status = 500;
    ctx.body = { detail: `Response contract violated: ${violation}` };
  };
}

async function respond(route: RouteDef, deps: Deps, ctx: Koa.Context): Promise<void> {
  const workflow = await authenticateWorkflowToken(ctx, deps, route);
  const caller = workflow ? undefined : await authenticate(ctx, deps, route.auth);
  const params = parse(route.params, ctx.params, 'path');
  const query = parse(route.query, ctx.query, 'query');
  const body = route.body
    ? parse(route.body, await readJsonBody(ctx, route.maxBodyBytes, deps.parseLargeJsonBody), 'body', route.bodyFieldReportedAsBody)
    : undefined;
  const workflowRepository = workflow && route.workflows?.repository({ body, query, params });
  if (workflow && workflowRepository !== null) authorizeWorkflow(workflow, route.workflows?.permission, workflowRepository);
  const repoRoot = caller && route.repoAccess?.repository({ body, query, params });
  if (caller && repoRoot) await deps.repoAccess.require(caller, repoRoot, route.repoAccess!.need);
  const result = await route.handler({ body, query, params, caller: caller!, workflow, ctx, deps });
  if (!result) return;
  if (result.status) ctx.status = result.status;
  for (const [k, v] of Object.entries(result.headers ?? {})) ctx.set(k, v);
  if (result.body !== undefined) ctx.body = result.body;
}

/** One router per resource, all under /api/v1. */
export function mountRoutes(app: Koa, routeGroups: RouteDef[][], deps: Deps, options: MountOptions = {}): void {
  for (const routes of routeGroups) {
    const router = new Router({ prefix: API_PREFIX });
    for (const route of routes) router[route.method](koaPath(route.path), handle(route, deps, options));
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
}
