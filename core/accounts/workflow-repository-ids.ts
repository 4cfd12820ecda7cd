import { ForbiddenError } from '../errors.js';
import type { WorkflowIdentity } from './oidc.js';

/** GitHub's numeric ids of a repository and of its owner (decimal strings): a name can be re-registered, an id cannot. */
export interface RepositoryIds {
  repository_id: string;
  owner_id: string;
}

/** Port: the ids the App's deliveries last named for a repository (null when none named it). Implemented in db/. */
export interface RepositoryIdsReader {
  repositoryIds(repoRoot: string): Promise<RepositoryIds | null>;
}

/**
 * A token names its repository by name and by id; where shipgate knows the repository's ids (the App
 * received a delivery for it), both of the token's ids must be those (docs/operations.md, "Security"):
 * a repository deleted and re-created under the same name, or an owner name re-registered by someone
 * else, is another repository. Where shipgate knows none, names decide (SHIPGATE_OIDC_OWNERS can pin
 * the owner's id) and the recorded run keeps the token's `repository_id` for the audit.
 */
export async function requireKnownRepositoryIds(workflow: WorkflowIdentity, reader: RepositoryIdsReader): Promise<void> {
  const known = await reader.repositoryIds(workflow.repository);
  if (!known) return;
  if (workflow.repository_id === known.repository_id && workflow.repository_owner_id === known.owner_id) return;
  throw new ForbiddenError(
    `The OIDC token names ${workflow.repository} with the ids repository_id ${workflow.repository_id ?? 'missing'}, ` +
      `repository_owner_id ${workflow.repository_owner_id ?? 'missing'}; the GitHub App knows ${workflow.repository} as ` +
      `repository ${known.repository_id} of owner ${known.owner_id}. A repository or owner re-created under the same name is another one.`,
  );
}
