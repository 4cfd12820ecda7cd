import { ROLES } from '../../../core/accounts/roles.js';
import type { Auth } from '../../../api/route.js';
import type { WorkflowPermission } from '../../../core/accounts/oidc.js';

/**
 * The "Roles" table of docs/api.md (who may do what), as route auth. Keys are `method path` with path parameter names
 * blanked (`/workflows/{}`), so a route matches whatever it calls its parameter. Routes whose
 * access also depends on ownership (executions, workflows, exports) are `any` at the route and
 * checked per resource in the handler.
 */
export const DESIGN_AUTH: Record<string, Auth> = {
  'post /auth/register': 'public',
  'post /auth/login': 'public',
  'get /auth/me': 'any',
  'post /auth/rotate': 'any',
  'post /auth/logout': 'any',
  'get /auth/github': 'public',
  'get /auth/github/start': 'public',
  'post /auth/github/link': 'any',
  'post /auth/github/link/finish': 'any',
  'get /auth/github/callback': 'public',
  'post /auth/github/exchange': 'public',
  'delete /auth/github': 'any',
  'get /users': ['ADMIN'],
  'patch /users/{}': ['ADMIN'],
  'delete /users/{}/github': ['ADMIN'],
  'post /workflows': ['ADMIN', 'OPERATOR'],
  'post /tasks': ['ADMIN', 'OPERATOR'],
  'post /releases/evidence': ['ADMIN', 'OPERATOR'],
  'get /workflows': 'any',
  'get /workflows/{}': 'any',
  'delete /workflows/{}': 'any',
  'get /workflows/{}/export': 'any',
  'get /executions': 'any',
  'get /executions/{}': 'any',
  'delete /executions/{}': 'any',
  'get /executions/{}/tool-calls': 'any',
  'get /compliance/{}/export': 'any',
  'get /releases/decision': 'any',
  'get /releases/evidence/{}/document': 'any',
  'get /releases/health': 'any',
  'get /releases/promotions': 'any',
  'get /releases/deployments': 'any',
  'get /releases/commits': 'any',
  'get /releases/history': 'any',
  'get /releases/evidence': 'any',
  'post /releases/promote': ['ADMIN', 'APPROVER'],
  'post /releases/overrides': ['ADMIN', 'APPROVER'],
  'delete /releases/overrides/{}': ['ADMIN', 'APPROVER'],
  'get /releases/overrides': 'any',
  'post /policies': ['ADMIN', 'POLICY_AUTHOR'],
  'put /releases/gates/{}/{}': ['ADMIN', 'POLICY_AUTHOR'],
  'get /releases/gates/{}/{}/versions': 'any',
  'post /releases/gates/{}/{}/simulate': 'any',
  'get /policies': 'any',
  'get /policies/{}': 'any',
  'get /compliance/presets': 'public',
  'get /compliance/keys': 'public',
  'get /trust/badge': 'public',
  'post /releases/github-webhook': 'public',
  'post /mcp/servers': ['ADMIN'],
  'get /mcp/servers': ['ADMIN', 'OPERATOR'],
  'delete /mcp/servers/{}': ['ADMIN'],
  'get /mcp/servers/{}/tools': ['ADMIN'],
  'post /mcp/servers/{}/tools/{}/approve': ['ADMIN'],
  'post /mcp/servers/{}/tools/{}/reject': ['ADMIN'],
  'get /agent-calls/pending': ['ADMIN', 'APPROVER'],
  'get /agent-calls/{}': ['ADMIN', 'APPROVER'],
  'post /agent-calls/{}/approve': ['ADMIN', 'APPROVER'],
  'post /agent-calls/{}/deny': ['ADMIN', 'APPROVER'],
  'post /agent-sessions': ['ADMIN', 'OPERATOR'],
  'post /agent-sessions/{}/close': 'any',
  'post /agent-keys': ['ADMIN'],
  'get /agent-keys': ['ADMIN'],
  'delete /agent-keys/{}': ['ADMIN'],
  'patch /agent-keys/{}': ['ADMIN'],
  'get /github/installations': ['ADMIN'],
  'get /github/deliveries': ['ADMIN'],
  'get /github/app': ['ADMIN'],
  'get /github/app/manifest': ['ADMIN'],
  'get /github/app/manifest/callback': 'public',
};

/**
 * GitHub Actions OIDC callers (docs/action.md, "Keyless: GitHub Actions OIDC"): what a workflow may do, on its own repository
 * only. Every other route answers such a caller 403.
 */
export const DESIGN_WORKFLOWS: Record<string, WorkflowPermission> = {
  'get /releases/decision': 'read_decision',
  'post /releases/evidence': 'record_evidence',
  'post /agent-sessions': 'open_agent_session',
  // The Action's `mode: session` with `agent` writes the hook configuration of the session it opened.
  'get /agent-sessions/{}/hooks': 'open_agent_session',
};

export function designKey(method: string, path: string): string {
  return `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;
}

/** `public`, or the sorted roles admitted (`any` = all six), so equivalent rules compare equal. */
export function admitted(auth: Auth): 'public' | string[] {
  if (auth === 'public') return 'public';
  return [...(auth === 'any' ? ROLES : auth)].sort();
}
