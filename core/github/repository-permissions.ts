/**
 * GitHub's repository permissions an installation token may be narrowed to, with the levels
 * shipgate accepts for each (GitHub's REST description, `app-permissions`). Only repository
 * permissions: a token minted for one session is limited to its repository, and organisation or
 * account permissions would reach beyond it (docs/mcp-gateway.md, "Least-privilege upstream credentials").
 */
export const REPOSITORY_PERMISSION_LEVELS: Readonly<Record<string, readonly ('read' | 'write')[]>> = {
  actions: ['read', 'write'],
  administration: ['read', 'write'],
  artifact_metadata: ['read', 'write'],
  attestations: ['read', 'write'],
  checks: ['read', 'write'],
  code_quality: ['read', 'write'],
  codespaces: ['read', 'write'],
  contents: ['read', 'write'],
  dependabot_secrets: ['read', 'write'],
  deployments: ['read', 'write'],
  discussions: ['read', 'write'],
  environments: ['read', 'write'],
  issues: ['read', 'write'],
  merge_queues: ['read', 'write'],
  metadata: ['read', 'write'],
  packages: ['read', 'write'],
  pages: ['read', 'write'],
  pull_requests: ['read', 'write'],
  repository_custom_properties: ['read', 'write'],
  repository_hooks: ['read', 'write'],
  repository_projects: ['read', 'write'],
  secret_scanning_alerts: ['read', 'write'],
  secrets: ['read', 'write'],
  security_events: ['read', 'write'],
  single_file: ['read', 'write'],
  statuses: ['read', 'write'],
  vulnerability_alerts: ['read', 'write'],
  workflows: ['write'],
};
