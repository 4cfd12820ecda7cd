/** How long a team's member list is used before GitHub is asked again (docs/github-app.md, "Teams"). */
export const TEAM_MEMBERS_TTL_MS = 60_000;

/** Teams remembered at most; the oldest is forgotten first. */
const MAX_TEAMS = 5_000;

/**
 * Team member lists as GitHub last answered them, by a key that names the credentials and the team
 * (an installation sees its own organisation's teams). An answer is kept TEAM_MEMBERS_TTL_MS, so a
 * burst of pull requests asks GitHub once per team; one asked while a lookup is on its way waits
 * for it. A failed lookup is not kept. Per process: a member added on GitHub counts after at most
 * a minute, and a removed one stops counting as soon.
 */
export interface TeamMembersCache {
  members(key: string, read: () => Promise<string[] | null>): Promise<string[] | null>;
}

export function createTeamMembersCache(ttlMs = TEAM_MEMBERS_TTL_MS, now = Date.now): TeamMembersCache {
  const kept = new Map<string, { at: number; answer: Promise<string[] | null> }>();
  return {
    members(key, read) {
      const found = kept.get(key);
      if (found && now() - found.at < ttlMs) return found.answer;
      kept.delete(key);
      const answer = read();
      const entry = { at: now(), answer };
      kept.set(key, entry);
      if (kept.size > MAX_TEAMS) kept.delete(kept.keys().next().value!);
      answer.catch(() => {
        if (kept.get(key) === entry) kept.delete(key);
      });
      return answer;
    },
  };
}
