import type { RouteDef } from './route.js';
import { authRoutes } from './routers/auth-routes.js';
import { complianceExportRoutes } from './routers/compliance-export-routes.js';
import { complianceKeyRoutes } from './routers/compliance-key-routes.js';
import { executionRoutes } from './routers/execution-routes.js';
import { agentKeyRoutes } from './routers/agent-key-routes.js';
import { agentSessionRoutes } from './routers/agent-session-routes.js';
import { hookSettingsRoutes } from './routers/hook-settings-routes.js';
import { mcpServerRoutes } from './routers/mcp-server-routes.js';
import { mcpToolPinRoutes } from './routers/mcp-tool-pin-routes.js';
import { agentCallRoutes } from './routers/agent-call-routes.js';
import { policyRoutes } from './routers/policy-routes.js';
import { badgeRoutes } from './routers/badge-routes.js';
import { deploymentRoutes } from './routers/deployment-routes.js';
import { gateRoutes } from './routers/gate-routes.js';
import { githubAppRoutes } from './routers/github-app-routes.js';
import { releaseOverviewRoutes } from './routers/release-overview-routes.js';
import { releasePromotionRoutes } from './routers/release-promotion-routes.js';
import { releaseOverrideRoutes } from './routers/release-override-routes.js';
import { releaseRoutes } from './routers/release-routes.js';
import { taskRoutes } from './routers/task-routes.js';
import { userRoutes } from './routers/user-routes.js';
import { workflowRoutes } from './routers/workflow-routes.js';
import { githubAdminRoutes } from './routers/github-admin-routes.js';
import { githubSignInRoutes } from './routers/github-sign-in-routes.js';
import { githubLinkRoutes } from './routers/github-link-routes.js';

/** Every resource's routes; the server mounts them and the OpenAPI document describes them. */
export const allRoutes: RouteDef[][] = [
  authRoutes,
  githubSignInRoutes,
  githubLinkRoutes,
  userRoutes,
  policyRoutes,
  complianceKeyRoutes,
  releaseRoutes,
  releasePromotionRoutes,
  releaseOverrideRoutes,
  releaseOverviewRoutes,
  deploymentRoutes,
  gateRoutes,
  badgeRoutes,
  taskRoutes,
  executionRoutes,
  complianceExportRoutes,
  workflowRoutes,
  mcpServerRoutes,
  mcpToolPinRoutes,
  agentCallRoutes,
  agentSessionRoutes,
  agentKeyRoutes,
  hookSettingsRoutes,
  githubAppRoutes,
  githubAdminRoutes,
];
