import { accountPage } from './pages/account.js';
import { executionPage } from './pages/execution.js';
import { executionsPage } from './pages/executions.js';
import { gateEditorPage } from './pages/gate-editor.js';
import { newTaskPage } from './pages/new-task.js';
import { policiesPage, policyPage } from './pages/policies.js';
import { releaseLookupPage, releasePage } from './pages/release.js';
import { repoLookupPage, repoPage } from './pages/repo.js';
import { newWorkflowPage } from './pages/workflow-builder.js';
import { workflowPage } from './pages/workflow.js';
import { workflowsPage } from './pages/workflows.js';
import { usersPage } from './pages/users.js';
import { githubSettingsPage } from './pages/github-settings.js';
import { notFoundPage } from './pages/not-found.js';
import { deliveriesPage } from './pages/github-deliveries.js';
import { installationsPage } from './pages/github-installations.js';
import { mcpServersPage } from './pages/mcp-servers.js';
import { agentCallsPage } from './pages/agent-calls.js';

/** @import { Page } from '../types.js' */

/**
 * Hash routes; a deep link or a refresh lands on the same page. Order matters: `new` before ids.
 * @type {[RegExp, Page, string[]?][]}
 */
const ROUTES = [
  [/^#\/executions\/?$/, executionsPage],
  [/^#\/executions\/new$/, newTaskPage],
  [/^#\/executions\/([^/]+)$/, executionPage, ['id']],
  [/^#\/workflows\/?$/, workflowsPage],
  [/^#\/workflows\/new$/, newWorkflowPage],
  [/^#\/workflows\/([^/]+)$/, workflowPage, ['id']],
  [/^#\/releases\/?$/, releaseLookupPage],
  [/^#\/releases\/([^/]+)\/([^/]+)\/([^/]+)$/, releasePage, ['owner', 'repo', 'sha']],
  [/^#\/repos\/?$/, repoLookupPage],
  [/^#\/repos\/([^/]+)\/([^/]+)$/, repoPage, ['owner', 'repo']],
  [/^#\/policies\/?$/, policiesPage],
  [/^#\/policies\/([^/]+)$/, policyPage, ['name']],
  [/^#\/users\/?$/, usersPage],
  [/^#\/repos\/([^/]+)\/([^/]+)\/gate$/, gateEditorPage, ['owner', 'repo']],
  [/^#\/account\/?$/, accountPage],
  [/^#\/github\/?$/, githubSettingsPage],
  [/^#\/deliveries\/?$/, deliveriesPage],
  [/^#\/installations\/?$/, installationsPage],
  [/^#\/mcp\/?$/, mcpServersPage],
  [/^#\/agent-calls\/?$/, agentCallsPage],
];

/**
 * @param {string} hash
 * @returns {{ page: Page, params: Record<string, string> }}
 */
export function findRoute(hash) {
  const path = hash.split('?')[0];
  for (const [pattern, page, names = []] of ROUTES) {
    const match = pattern.exec(path);
    if (match) return { page, params: Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])])) };
  }
  return { page: notFoundPage, params: {} };
}
