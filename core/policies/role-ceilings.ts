import type { StageRole } from './policy.js';

/** What a workflow stage may ever hold because of its role, whatever the policy (docs/workflows.md, "Governed agent executions": permissions). */
export const ROLE_CEILINGS: Readonly<Record<StageRole, readonly string[]>> = {
  intake: ['lineage:read', 'repo:read', 'document:write:*'],
  reviewer: ['lineage:read', 'repo:read', 'document:*', 'review:submit', 'network:http:get'],
  release: ['lineage:read', 'repo:read', 'document:read:*', 'release:write'],
  worker: ['*'],
};
