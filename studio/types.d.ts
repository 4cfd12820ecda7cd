// The studio's view of the API: every response type comes from the zod schema that validates it
// and documents it in /openapi.json (ARCHITECTURE.md, "Studio"), through type-only imports that
// the browser never loads. Change a response field there and `npm run typecheck` fails on the
// studio's uses of it.
import type { z } from 'zod';
import type { registerResponseSchema, rotateKeyResponseSchema, userResponseSchema } from '../api/schemas/account-schemas.js';
import type { errorSchema, validationErrorSchema } from '../api/schemas/error-schemas.js';
import type { executionSummaryWithOwnerSchema, executionWithOwnerSchema } from '../api/schemas/execution-schemas.js';
import type { policySchema } from '../api/schemas/policy-schemas.js';
import type { decisionResponseSchema } from '../api/schemas/release-decision-schemas.js';
import type { healthResponseSchema } from '../api/schemas/release-health-schemas.js';
import type { promotionListSchema } from '../api/schemas/release-promotion-schemas.js';
import type { gateVersionListSchema, gateVersionSchema } from '../api/schemas/release-gate-schemas.js';
import type { gateSimulationSchema } from '../api/schemas/release-gate-simulation-schemas.js';
import type { overrideListSchema, overrideResponseSchema } from '../api/schemas/release-override-schemas.js';
import type { evidenceListSchema, releaseCommitListSchema, releaseHistorySchema } from '../api/schemas/release-overview-schemas.js';
import type { workflowCancelSchema, workflowWithOwnerSchema } from '../api/schemas/workflow-schemas.js';
import type { DeniedPermission } from '../core/errors.js';
import type {
  githubAuthorizeUrlSchema,
  githubCallbackResultSchema,
  githubSignInStatusSchema,
} from '../api/schemas/github-sign-in-schemas.js';
import type { appManifestFormSchema, appStatusSchema } from '../api/schemas/github-app-schemas.js';
import type { deliverySchema, installationListSchema } from '../api/schemas/github-admin-schemas.js';
import type { mcpServerSchema } from '../api/schemas/mcp-schemas.js';
import type { mcpToolPinSchema } from '../api/schemas/mcp-tool-pin-schemas.js';
import type { pendingAgentCallSchema } from '../api/schemas/agent-call-schemas.js';

export type User = z.output<typeof userResponseSchema>;
export type SignedIn = z.output<typeof registerResponseSchema>;
export type RotatedKey = z.output<typeof rotateKeyResponseSchema>;
/** GET /auth/github: whether "Sign in with GitHub" is offered. */
export type GitHubSignInStatus = z.output<typeof githubSignInStatusSchema>;
/** POST /auth/github/link: GitHub's authorization page for linking the signed-in account. */
export type GitHubAuthorizeUrl = z.output<typeof githubAuthorizeUrlSchema>;
/** POST /auth/github/link/finish: the GitHub account now linked. */
export type GitHubCallbackResult = z.output<typeof githubCallbackResultSchema>;
/** GET /github/app (ADMIN): the GitHub App in force and where it comes from. */
export type GitHubAppStatus = z.output<typeof appStatusSchema>;
/** GET /github/app/manifest (ADMIN): the form to post to GitHub's new-App page. */
export type GitHubAppManifestForm = z.output<typeof appManifestFormSchema>;
export type Policy = z.output<typeof policySchema>;
export type Execution = z.output<typeof executionWithOwnerSchema>;
export type ExecutionSummary = z.output<typeof executionSummaryWithOwnerSchema>;
export type Workflow = z.output<typeof workflowWithOwnerSchema>;
export type WorkflowStage = Workflow['stages'][number];
export type WorkflowCancel = z.output<typeof workflowCancelSchema>;
export type ReleaseDecision = z.output<typeof decisionResponseSchema>;
/** One uploaded evidence item of a decision, with what its document said and the rules it was judged by. */
export type UploadedEvidence = ReleaseDecision['provenance']['evidence'][number];
export type EvidenceSummary = NonNullable<UploadedEvidence['summary']>;
export type ReleaseHealth = z.output<typeof healthResponseSchema>;
export type PromotionList = z.output<typeof promotionListSchema>;
export type GateVersion = z.output<typeof gateVersionSchema>;
export type GateVersionList = z.output<typeof gateVersionListSchema>;
/** A repository's release gate, every field present (as the API answers it and the editor sends it). */
export type Gate = GateVersion['gate'];
/** POST /releases/gates/{owner}/{repo}/simulate: what a draft gate would decide for the recent commits. */
export type GateSimulation = z.output<typeof gateSimulationSchema>;
/** POST /releases/overrides, DELETE /releases/overrides/{id}: one override with its `state` judged now. */
export type ReleaseOverride = z.output<typeof overrideResponseSchema>;
/** GET /releases/overrides?repo_root=: a repository's overrides, newest first (paged by the Link header). */
export type ReleaseOverrideList = z.output<typeof overrideListSchema>;
/** One override in force on a decision and the blockers it lifted there. */
export type Overridden = ReleaseDecision['overridden'][number];
/** GET /releases/commits: a repository's decided commits, newest evaluation first. */
export type ReleaseCommitList = z.output<typeof releaseCommitListSchema>;
export type ReleaseCommit = ReleaseCommitList['commits'][number];
/** GET /releases/history: decisions per UTC day and the most frequent blockers. */
export type ReleaseHistory = z.output<typeof releaseHistorySchema>;
/** GET /releases/evidence: a commit's uploaded evidence records. */
export type EvidenceList = z.output<typeof evidenceListSchema>;
export type EvidenceRecord = EvidenceList['evidence'][number];
/** GET /github/installations (ADMIN): the App's installations and their repositories. */
export type GitHubInstallationList = z.output<typeof installationListSchema>;
/** One webhook delivery of GET /github/deliveries (ADMIN). */
export type GitHubDelivery = z.output<typeof deliverySchema>;
/** A registered upstream MCP server (GET /mcp/servers). */
export type McpServer = z.output<typeof mcpServerSchema>;
/** One upstream tool's pin (GET /mcp/servers/{name}/tools, ADMIN). */
export type McpToolPin = z.output<typeof mcpToolPinSchema>;
export type AgentCallApproval = z.output<typeof pendingAgentCallSchema>;

/** `detail` of an answer other than 2xx: a message, an object (a policy denial), or the 422 issues. */
export type ErrorDetail = z.output<typeof errorSchema>['detail'] | z.output<typeof validationErrorSchema>['detail'];
/** The object `detail` of a 403 from a policy (api/middleware/error-handler.ts). */
export interface PolicyDenial {
  message: string;
  denied: DeniedPermission[];
}

/** What h() and replace() take as children: nodes, text, nothing (skipped), or lists of these. */
export type Child = Node | string | number | false | null | undefined | readonly Child[];

type TagOf<S extends string> = S extends `${infer T}.${string}` ? T : S;
/** The element h('tag.class', ...) builds: h('input') is an HTMLInputElement. */
export type ElementOf<S extends string> = TagOf<S> extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[TagOf<S>] : HTMLElement;

/** One page's view (main.js builds one per page): `signal` aborts its requests and timers when the user leaves. */
export interface View {
  root: HTMLElement;
  signal: AbortSignal;
  /** Calls `fn` every `ms` until the view ends or `fn` answers false. */
  every(ms: number, fn: () => Promise<boolean | void> | boolean | void): void;
  go(hash: string): void;
}

/** A page: draws itself into `view.root` from the route's named parameters. */
export type Page = (view: View, params: Record<string, string>) => Promise<void> | void;

/** A button action, as run-page.js shows it. */
export interface RunAction {
  id: string;
  onclick: () => Promise<void>;
}

/** The columns of a paged list (paged-list.js) of T. */
export interface ListColumns<T> {
  headers: string[];
  empty: string;
  row(item: T): Child[];
  /** The items of a page's JSON; the page itself by default. */
  unwrap?(json: unknown): T[];
  /** The attributes of an item's row (its `dataset`, say). */
  rowProps?(item: T): Record<string, unknown>;
  /** Names the list where a page shows several: its "Load more" button says which, with no page-wide id. */
  name?: string;
  /** Called once each page is drawn: whether another follows. */
  onPage?(more: boolean): void;
}
