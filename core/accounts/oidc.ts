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
  /** The `sha` claim: the commit the run built (on a pull request, the merge commit of `refs/pull/N/merge`). */
  sha: string | null;
  /** The `job_workflow_ref` claim: the workflow file the job ran (a reusable workflow's own), what `evidence_sources` matches. */
  job_workflow_ref: string | null;
  /** The numeric ids of the repository and its owner (`repository_id`, `repository_owner_id`): names can be re-registered, ids cannot. */
  repository_id: string | null;
  repository_owner_id: string | null;
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
 * An entry of SHIPGATE_OIDC_OWNERS: `acme`, or `acme@1234567` pinning the account's numeric id
 * (the `repository_owner_id` claim), so a re-registered name is refused (docs/operations.md, "Security").
 */
function ownerEntry(entry: string): { login: string; id: string | null } {
  const at = entry.indexOf('@');
  return at < 0 ? { login: entry.toLowerCase(), id: null } : { login: entry.slice(0, at).toLowerCase(), id: entry.slice(at + 1) };
}

/**
 * The workflow run behind a token, accepted only when OIDC is on (`owners` not empty) and the
 * token's repository belongs to one of `owners` (compared case-insensitively, as GitHub does);
 * an entry that pins an id also needs the token's `repository_owner_id` to be that id.
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
  const listed = owners.map(ownerEntry).find((entry) => entry.login === owner);
  if (!listed)
    throw new AuthenticationError(`OIDC token refused: the "repository_owner" claim (${owner}) is not listed in SHIPGATE_OIDC_OWNERS.`);
  const ownerId = integerText(claims.repository_owner_id);
  if (listed.id !== null && ownerId !== listed.id)
    throw new AuthenticationError(
      `OIDC token refused: SHIPGATE_OIDC_OWNERS pins ${owner} to the account id ${listed.id}, and the "repository_owner_id" claim is ${ownerId ?? 'missing'} (a re-registered name is another account).`,
    );
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
    sha: text(claims.sha)?.toLowerCase() ?? null,
    job_workflow_ref: text(claims.job_workflow_ref),
    repository_id: integerText(claims.repository_id),
    repository_owner_id: ownerId,
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

/**
 * The run as recorded with the evidence it uploads and the agent sessions it opens (the owner is part of the
 * repository): since migration 039 also what it built (`sha`, `ref`), the workflow file its job ran and the
 * repository's numeric id (docs/release-gate.md, "Evidence from workflows").
 */
export function workflowRunOf({
  repository_owner: _owner,
  head_ref: _headRef,
  repository_owner_id: _ownerId,
  ...run
}: WorkflowIdentity): WorkflowRun {
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
