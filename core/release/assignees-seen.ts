import type { PullRequestFacts } from './authorship.js';

/**
 * A new read of a pull request's facts with everyone shipgate saw assigned to it before (at any head) and who is no
 * longer, as `former_assignees`: the person who asked an agent stays excluded from approving its pull request once
 * unassigned, as on GitHub (docs/release-gate.md, "Agents on pull requests"). Logins compare case-insensitively.
 */
export function withAssigneesSeen(facts: PullRequestFacts, seenBefore: readonly string[]): PullRequestFacts {
  const current = new Set(facts.assignees.map((login) => login.toLowerCase()));
  const former = new Map<string, string>();
  for (const login of seenBefore) {
    const key = login.toLowerCase();
    if (!current.has(key) && !former.has(key)) former.set(key, login);
  }
  return { ...facts, former_assignees: [...former.values()].sort() };
}
