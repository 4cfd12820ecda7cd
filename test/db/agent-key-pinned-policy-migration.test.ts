import type { Knex } from 'knex';
import { insertOwner } from '../executions/support/execution-fixtures.js';
import { migrateUpTo, useScratchDatabase } from './support/scratch-database.js';

describe('migration 041: agent keys made before it pin the policy version current at the upgrade', () => {
  const scratch = useScratchDatabase('m041');
  let db: Knex;
  beforeAll(() => {
    db = scratch.db();
  });

  it("pins a custom policy's newest version and a built-in's version 1; a key revoked before was revoked by an ADMIN", async () => {
    await migrateUpTo(db, '037-agent-key-open-sessions');
    const owner = await insertOwner(db);
    for (const version of [1, 2]) {
      await db('policies').insert({
        name: 'agent-terms',
        version,
        body: { name: 'agent-terms', version },
        digest: `d${version}`,
        created_by: owner,
      });
    }
    const key = (keyName: string, policy: string, revoked: boolean) => ({
      name: keyName,
      repo_root: 'acme/shop',
      key_hash: `hash-${keyName}`,
      compliance_policy: policy,
      servers: ['github'],
      session_seconds: 3600,
      created_by: owner,
      revoked_at: revoked ? new Date() : null,
    });
    await db('agent_keys').insert([
      key('custom', 'agent-terms', false),
      key('built-in', 'default', false),
      key('gone', 'agent-terms', true),
    ]);

    await migrateUpTo(db, '041-agent-key-pinned-policy');

    const rows = await db('agent_keys').orderBy('name').select('name', 'policy_version', 'revoked_reason');
    expect(rows).toEqual([
      { name: 'built-in', policy_version: 1, revoked_reason: null },
      { name: 'custom', policy_version: 2, revoked_reason: null },
      { name: 'gone', policy_version: 2, revoked_reason: 'revoked' },
    ]);
  });
});
