import { createTeamMembersCache, TEAM_MEMBERS_TTL_MS } from '../../app/team-members-cache.js';

describe('team members remembered for a minute', () => {
  it('asks GitHub once per team within the lifetime, again after it, and never keeps a failure', async () => {
    let now = 0;
    const cache = createTeamMembersCache(TEAM_MEMBERS_TTL_MS, () => now);
    let asked = 0;
    const read = async () => {
      asked += 1;
      return ['ana'];
    };
    const together = await Promise.all([cache.members('acme/sre', read), cache.members('acme/sre', read)]);
    expect(together).toEqual([['ana'], ['ana']]);
    now += TEAM_MEMBERS_TTL_MS - 1;
    await cache.members('acme/sre', read);
    expect(asked).toBe(1);
    now += 1;
    await cache.members('acme/sre', read);
    expect(asked).toBe(2);

    await expect(cache.members('acme/dba', () => Promise.reject(new Error('502')))).rejects.toThrow('502');
    expect(await cache.members('acme/dba', async () => null)).toBeNull();
  });
});
