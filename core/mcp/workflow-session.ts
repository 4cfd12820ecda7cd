import { workflowBranch, type WorkflowIdentity } from '../accounts/oidc.js';
import { ForbiddenError } from '../errors.js';

/**
 * Agent sessions a GitHub Actions workflow opens with its OIDC token (docs/mcp-gateway.md,
 * "Sessions opened by a GitHub Actions workflow"). The repository check is the one every OIDC
 * caller gets (the token's `repository` claim); this adds the branch.
 */

/**
 * The account that owns every session a workflow opens: there is no person behind the token. It
 * cannot sign in (deactivated, no password, an e-mail no registration accepts) and holds no key,
 * so ADMIN and AUDITOR see its sessions and ADMIN may close or cancel them. Created by the store
 * the first time a workflow opens a session.
 */
export const WORKFLOW_SESSION_OWNER = {
  id: '00000000-0000-4000-8000-00000000a571',
  email: 'github-actions',
  name: 'GitHub Actions workflows (agent sessions opened with an OIDC token)',
  role: 'VIEWER',
} as const;

/**
 * The session's branch: the workflow's own branch (its `ref` claim, or a pull request's head
 * branch). A requested branch must be that one (403 otherwise); a run on no branch (a tag) may
 * not name one, and its session is bound to no branch.
 */
export function workflowSessionBranch(workflow: WorkflowIdentity, requested: string | undefined): string | null {
  const branch = workflowBranch(workflow);
  if (requested !== undefined && requested !== branch)
    throw new ForbiddenError(
      branch
        ? `The OIDC token's "ref" claim is ${workflow.ref}: a session it opens is on branch ${branch}, not ${requested}.`
        : `The OIDC token's "ref" claim (${workflow.ref ?? 'none'}) names no branch: a session it opens cannot name branch ${requested}.`,
    );
  return branch;
}
