import type { RepoAccess } from '../accounts/repo-access.js';
import { requireStoredItem } from '../accounts/require-stored-item.js';
import { NotFoundError } from '../errors.js';
import type { Principal } from '../accounts/user.js';
import { assertCanCancel, visibleOwnedResource } from './execution-access.js';

/** A resource someone owns, bound to a repository or not (an execution, a workflow, an agent session). */
export interface OwnedResource {
  owner_id: string;
  repo_root: string | null;
}

/** How errors name a kind of owned resource: "Execution not found", "may cancel an execution". */
export interface OwnedResourceKind {
  name: string;
  /** With its article, for the 403 of a cancel. */
  indefinite: string;
}

export const EXECUTION: OwnedResourceKind = { name: 'Execution', indefinite: 'an execution' };
export const WORKFLOW: OwnedResourceKind = { name: 'Workflow', indefinite: 'a workflow' };
export const AGENT_SESSION: OwnedResourceKind = { name: 'Agent session', indefinite: 'an agent session' };

/**
 * What a caller does with an owned resource: `read` it (the record, its tool calls, its export), or
 * `cancel` it (cancelling, and closing an agent session, which ends it the same way).
 */
export type OwnedResourceAction = 'read' | 'cancel';

/**
 * The one check of an owned resource, for every route that acts on one: the owner, ADMIN and
 * AUDITOR see it (404 otherwise, so its existence is not revealed); only the owner and ADMIN
 * cancel (403); and a resource bound to a repository needs read on it to be seen and write to be
 * cancelled (docs/api.md, "Repository access"). Answers the resource.
 */
export async function requireOwnedResource<T extends OwnedResource>(
  repoAccess: Pick<RepoAccess, 'require'>,
  caller: Principal,
  asked: { kind: OwnedResourceKind; id: string; action: OwnedResourceAction },
  found: T | null | undefined,
): Promise<T> {
  const resource = visibleOwnedResource(caller, found, asked.kind.name, asked.id);
  // Read first: one who may not read its repository gets the 404 an unknown id gets, before any 403 of a cancel.
  if (resource.repo_root)
    await requireStoredItem(repoAccess, caller, resource.repo_root, 'read', new NotFoundError(asked.kind.name, asked.id));
  if (asked.action === 'cancel') assertCanCancel(caller, resource.owner_id, asked.kind.indefinite);
  if (resource.repo_root && asked.action === 'cancel') await repoAccess.require(caller, resource.repo_root, 'write');
  return resource;
}
