import type Koa from 'koa';
import type { z } from 'zod';
import type { WorkflowIdentity, WorkflowPermission } from '../core/accounts/oidc.js';
import type { Role } from '../core/accounts/roles.js';
import type { RepoNeed } from '../core/accounts/repo-access.js';
import type { Principal } from '../core/accounts/user.js';
import type { Deps } from './deps.js';
import type { ApiTag } from './openapi-tags.js';

/**
 * Who may call a route: `public` needs no key (the badge), `any` any valid API key, a role list a
 * key whose user holds one of those roles. A missing or unknown key answers 401, a deactivated
 * account or a role outside the list 403.
 */
export type Auth = 'public' | 'any' | readonly Role[];

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, ResponseHeader>;
}

/**
 * A documented response header. OpenAPI requires a schema for every header (and linters check it),
 * so one cannot be declared without it; an optional schema means "not always sent".
 */
export interface ResponseHeader {
  description: string;
  schema: z.ZodType;
}

export interface RouteInput<B, Q, P, A extends Auth> {
  body: B;
  query: Q;
  params: P;
  /**
   * The authenticated caller; present on every route that is not public, except when a
   * GitHub Actions workflow called a route that admits `workflows` (then `workflow` is set).
   */
  caller: A extends 'public' ? Principal | undefined : Principal;
  /** The workflow run whose OIDC token authenticated the request (routes with `workflows` only). */
  workflow?: WorkflowIdentity;
  ctx: Koa.Context;
  deps: Deps;
}

export interface RouteResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * One route: its validation schemas, its auth rule, its documented responses and its handler.
 * The same object feeds the Koa router and the OpenAPI document, so they cannot drift.
 */
export interface RouteDef<B = unknown, Q = unknown, P = unknown, A extends Auth = Auth> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI style, relative to /api/v1: `/workflows/{workflow_id}`. */
  path: string;
  summary: string;
  /** What a caller needs beyond the summary: rules, limits, what each outcome means. */
  description: string;
  /** From the one declared list (api/openapi-tags.ts). */
  tags: readonly ApiTag[];
  /** Checked before the inputs are parsed, so an unauthenticated caller learns nothing about them. */
  auth: A;
  body?: z.ZodType<B>;
  /**
   * A body field validated exactly as another route's whole body (a draft gate, as `PUT` of the gate takes it): its
   * issues are reported at the `loc` that route reports (`["body", ...]`, without the field's name), so the same
   * invalid value answers the same 422 at both.
   */
  bodyFieldReportedAsBody?: string;
  /** The JSON body's limit in bytes when it must exceed the 1 MiB every other route takes (document its 413 in `errors`). */
  maxBodyBytes?: number;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  /**
   * Admits GitHub Actions OIDC callers for `permission` on the repository this request targets
   * (checked after validation, before the handler). Without it, such callers get 403. `repository`
   * answers null when only a stored resource names it: the handler then calls authorizeWorkflow.
   */
  workflows?: { permission: WorkflowPermission; repository(input: { body: B; query: Q; params: P }): string | null };
  /**
   * The repository this request acts on and the GitHub permission it needs there (docs/api.md,
   * "Repository access"), checked for API-key callers after validation, before the handler: 404
   * when the caller cannot read it, 403 when readable without `need`. `repository` answers
   * undefined when the request names none (then nothing is checked here; a list filters instead).
   * A repository known only from a stored resource is checked in the handler with `deps.repoAccess`.
   */
  repoAccess?: { need: RepoNeed; repository(input: { body: B; query: Q; params: P }): string | undefined };
  /** Success responses; the error responses are derived from auth and inputs. */
  responses: Record<number, ResponseSpec>;
  /** Extra documented error statuses (e.g. 409) with their meaning. */
  errors?: Record<number, string>;
  /**
   * Runs once the caller is authenticated and the inputs are parsed. Its result becomes the
   * response's status, headers and body; returning nothing leaves the response as it set `ctx`.
   */
  handler(input: RouteInput<B, Q, P, A>): Promise<RouteResult | void> | RouteResult | void;
}

/** Identity function that keeps the generic types of one route definition. */
export function defineRoute<B = undefined, Q = undefined, P = undefined, A extends Auth = Auth>(def: RouteDef<B, Q, P, A>): RouteDef {
  return def as unknown as RouteDef;
}
