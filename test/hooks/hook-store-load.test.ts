// The agent session store first: it loads the hook call store through the execution store, a
// cycle in which the hook store's statements must not read the session store's exports early.
import { callStateBy } from '../../db/stores/mcp/postgres-agent-session-store.js';
import { createHookCallStore } from '../../db/stores/hooks/postgres-hook-call-store.js';
import type { Knex } from 'knex';

describe('the hook call store (db/stores/hooks/postgres-hook-call-store.ts)', () => {
  it('loads whichever store is imported first, and builds', () => {
    expect(typeof callStateBy).toBe('function');
    expect(Object.keys(createHookCallStore({} as Knex)).sort()).toEqual(
      ['bindRun', 'discard', 'establishRoot', 'findOpen', 'incomplete', 'open', 'sessionByTokenCounted', 'stateOfRun'].sort(),
    );
  });
});
