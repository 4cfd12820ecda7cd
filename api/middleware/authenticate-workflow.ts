import type Koa from 'koa';
import { authenticateWorkflow, authorizeWorkflow, looksLikeJwt, type WorkflowIdentity } from '../../core/accounts/oidc.js';
import { requireKnownRepositoryIds } from '../../core/accounts/workflow-repository-ids.js';
import type { Deps } from '../deps.js';
import type { RouteDef } from '../route.js';
import { apiKeyOf, limit } from './authenticate.js';

/**
 * A GitHub Actions OIDC token where an API key would go: the workflow run it names, or undefined
 * when the credential is not a JWT (an API key, or none). Routes that do not admit workflows
 * answer 403 at once, as does a token whose repository ids are not those the App knows; the repository check waits for the validated request (mount-routes).
 * The token itself is never logged or echoed.
 */
export async function authenticateWorkflowToken(ctx: Koa.Context, deps: Deps, route: RouteDef): Promise<WorkflowIdentity | undefined> {
  if (route.auth === 'public') return undefined;
  const credential = apiKeyOf(ctx);
  if (!looksLikeJwt(credential)) return undefined;
  const workflow = await authenticateWorkflow(deps.oidc, deps.config.oidc.owners, credential);
  if (!route.workflows) authorizeWorkflow(workflow, undefined);
  await limit(deps, `workflow:${workflow.repository}`);
  // By id as well as by name, where the App knows the repository's ids (docs/operations.md, "Security").
  await requireKnownRepositoryIds(workflow, deps.release.store);
  return workflow;
}
