import { AuthenticationError, ForbiddenError } from '../errors.js';
import type { WorkflowRun } from '../release/evidence.js';
import { normalizeRepoRoot } from '../release/github-identifiers.js';

/**
 * Keyless callers: a GitHub Actions job presents its OIDC token instead of an API key
 * (ARCHITECTURE.md, "Action and OIDC"). The token names the workflow run; that run may read the
 * release decision of its own repository, record evidence for it and open agent sessions for it
 * (docs/mcp-gateway.md), nothing else.
 */

/** The workflow run a verified token names, with the owner its repository belongs to and the ref it runs on. */
export interface WorkflowIdentity extends WorkflowRun {
  repository_owner: string;
  /** The `ref` claim: `refs/heads/main`, `refs/pull/12/merge`, `refs/tags/v1`. */
  ref: string | null;
  /** The `head_ref` claim: a pull request's head branch (empty on other events). */
  head_ref: string | null;
}

/** What an OIDC-verified workflow may do, always on its own repository only. */
export type WorkflowPermission = 'read_decision' | 'record_evidence' | 'open_agent_session';

/**
 * Port: checks a token's signature against its issuer's published keys, that its issuer is
 * configured, its audience, and its lifetime (`exp`, `nbf`, `iat`), and answers its claims.
 * Throws AuthenticationError naming the check that failed (never quoting the token), or
 * UnavailableError when the issuer's keys cannot be fetched. Implemented in net/.
 */
export interface OidcVerifier {
  verify(token: string): Promise<Record<string, unknown>>;
}

/** API keys are `sg_...`; a JWT is three base64url segments, its header JSON starting `{"`. */
export function looksLikeJwt(credential: string | undefined): credential is string {
  return !!credential && /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(credential);
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value.slice(0, 500) : null);
const integerText = (value: unknown): string | null => (typeof value === 'number' ? String(value) : text(value));

/**
 * The workflow run behind a token, accepted only when OIDC is on (`owners` not empty) and the
 * token's repository belongs to one of `owners` (compared case-insensitively, as GitHub does).
 */
export async function authenticateWorkflow(
  verifier: OidcVerifier | undefined,
  owners: readonly string[],
  token: string,
): Promise<WorkflowIdentity> {
  if (!verifier || owners.length === 0)
    throw new AuthenticationError('GitHub Actions OIDC tokens are not accepted by this server (SHIPGATE_OIDC_OWNERS is not set).');
  const claims = await verifier.verify(token);
  const repository = normalizeRepoRoot(text(claims.repository) ?? '');
  const owner = text(claims.repository_owner)?.toLowerCase();
  if (!repository || !owner || !repository.startsWith(`${owner}/`))
    throw new AuthenticationError('OIDC token refused: it names no GitHub repository ("repository", "repository_owner").');
  if (!owners.some((listed) => listed.toLowerCase() === owner))
    throw new AuthenticationError(`OIDC token refused: the "repository_owner" claim (${owner}) is not listed in SHIPGATE_OIDC_OWNERS.`);
  return {
    repository,
    repository_owner: owner,
    workflow_ref: text(claims.workflow_ref),
    run_id: integerText(claims.run_id),
    run_attempt: integerText(claims.run_attempt),
    actor: text(claims.actor),
    event_name: text(claims.event_name),
    ref: text(claims.ref),
    head_ref: text(claims.head_ref),
  };
}

const VERBS: Record<WorkflowPermission, string> = {
  read_decision: 'read the release decision of',
  record_evidence: 'record evidence for',
  open_agent_session: 'open agent sessions for',
};

/**
 * The one rule for OIDC callers: `permission` on the repository named by the token's
 * `repository` claim. A route that grants no permission, or another repository, is forbidden.
 */
export function authorizeWorkflow(identity: WorkflowIdentity, permission: WorkflowPermission | undefined, repoRoot?: string): void {
  if (!permission)
    throw new ForbiddenError(
      'A GitHub Actions OIDC token may only read the release decision of, record evidence for, and open agent sessions for, its own repository.',
    );
  if (normalizeRepoRoot(repoRoot ?? '') !== identity.repository)
    throw new ForbiddenError(
      `The OIDC token's "repository" claim is ${identity.repository}: it may only ${VERBS[permission]} that repository, not ${repoRoot}.`,
    );
}

/** The run as recorded with the evidence it uploads (the owner is part of the repository; the ref is not recorded). */
export function workflowRunOf({ repository_owner: _owner, ref: _ref, head_ref: _headRef, ...run }: WorkflowIdentity): WorkflowRun {
  return run;
}

/**
 * The branch the workflow runs on: `refs/heads/<branch>` of the `ref` claim, or on a pull request
 * (whose ref is `refs/pull/N/merge`) its head branch; null for a tag or another ref.
 */
export function workflowBranch(identity: Pick<WorkflowIdentity, 'ref' | 'head_ref'>): string | null {
  if (identity.ref?.startsWith('refs/heads/')) return identity.ref.slice('refs/heads/'.length) || null;
  if (identity.ref?.startsWith('refs/pull/') && identity.head_ref) return identity.head_ref;
  return null;
}
