import type { Principal } from '../accounts/user.js';
import { sha256Hex } from '../canonical-json.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import { overrideRefusalOf } from './apply-overrides.js';
import type { Blocker } from './blocker.js';
import { decideRelease } from './decide-release.js';
import type { Override } from './override.js';
import { overriderRefusal } from './overrider-refusal.js';
import { readCommitState } from './read-commit-state.js';
import type { ReleasePorts } from './release-ports.js';

export interface OverrideRequest {
  repo_root: string;
  commit_sha: string;
  /** Components (`check:build`) or codes (`required_check_failed`) of blockers the commit has now. */
  blockers: string[];
  reason: string;
  expires_in_seconds: number;
}

/**
 * Records an override of a commit's blockers (docs/release-gate.md, "Overrides"): each name must match a
 * blocker the commit has now, the caller (whose repository permission the route checked) must be independent
 * of the change, and each matched blocker must be overridable under the gate in force.
 * The override lifts exactly the matched (code, component) pairs: a blocker appearing later is not lifted.
 */
export async function createOverride(
  ports: ReleasePorts,
  caller: Principal,
  request: OverrideRequest,
  now = new Date(),
): Promise<Override> {
  const { repo_root: repoRoot, commit_sha: commitSha } = request;
  const [{ decision }, state] = await Promise.all([
    decideRelease(ports, repoRoot, commitSha, now),
    readCommitState(ports, repoRoot, commitSha),
  ]);
  // The inputs are judged before GitHub (docs/api.md, "Repository access"): a name matching no blocker is 422 even
  // for a caller whose independence is then refused, such as one without a GitHub link.
  const standing: Blocker[] = [...decision.blockers, ...decision.overridden.flatMap((o) => o.blockers)].map(({ waitable: _w, ...b }) => b);
  const lifted: Blocker[] = [];
  const unknown: string[] = [];
  for (const name of new Set(request.blockers)) {
    const matched = standing.filter((b) => b.component === name || b.code === name);
    if (matched.length === 0) unknown.push(name);
    for (const b of matched) if (!lifted.includes(b)) lifted.push(b);
  }
  if (unknown.length > 0) {
    const has = standing.length === 0 ? 'it has none' : `its blockers are ${standing.map((b) => `${b.code} on ${b.component}`).join(', ')}`;
    throw ValidationError.single(
      ['body', 'blockers'],
      `The commit has no blocker ${unknown.map((n) => `\`${n}\``).join(', ')} now; ${has}.`,
    );
  }
  const sessions = decision.authorship.commits.flatMap((c) =>
    c.governed_by?.kind === 'agent_session' ? [c.governed_by.execution_id] : [],
  );
  // The change's commits: this one and, where a pull request names it, every commit of that pull request.
  const shas = [commitSha, ...(state.authorship.record?.facts?.commits.map((c) => c.sha) ?? [])];
  const [owners, workOwners, storedCommit] = await Promise.all([
    ports.overrides.executionOwners([...new Set(sessions)]),
    ports.overrides.boundWorkOwners(repoRoot, [...new Set(shas)]),
    state.authorship.record ? null : ports.overrides.storedCommit(repoRoot, commitSha),
  ]);
  const refusal = overriderRefusal(
    {
      login: caller.github?.login ?? null,
      record: state.authorship.record,
      storedCommit,
      agents: decision.gate.agents,
      ownsCoveringSession: owners.includes(caller.user.id),
      ownsBoundWork: workOwners.includes(caller.user.id),
    },
    commitSha,
  );
  if (refusal) throw new ForbiddenError(refusal);

  const forbidden = lifted.map((b) => overrideRefusalOf(b, decision.gate)).filter((r): r is string => r !== null);
  if (forbidden.length > 0) throw new ForbiddenError(`Not overridable: ${forbidden.join(' ')}`);

  return ports.overrides.addOverride({
    repo_root: repoRoot,
    commit_sha: commitSha,
    named: [...new Set(request.blockers)],
    blockers: lifted.map(({ code, component }) => ({ code, component })),
    reason: request.reason,
    reason_digest: sha256Hex(request.reason),
    created_by: caller.user.id,
    created_by_login: caller.github!.login,
    expires_at: new Date(now.getTime() + request.expires_in_seconds * 1000).toISOString(),
  });
}
