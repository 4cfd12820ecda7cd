import { randomBytes } from 'node:crypto';
import { canonicalDigest } from '../../core/canonical-json.js';
import { createExecutionJournal } from '../../db/stores/execution-journal.js';
import { createExecutionStore } from '../../db/stores/execution-store.js';
import { defaultPolicy, testExecution } from '../agent/support/agent-harness.js';
import { MemoryJournal } from '../helpers/memory-journal.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { journalContract } from './support/journal-contract.js';

const policy = defaultPolicy();

journalContract('PostgreSQL journal (db/stores/execution-journal.ts)', async () => {
  const database = await createTestDatabase();
  const secretKey = randomBytes(32);
  const store = createExecutionStore(database.db, secretKey);
  const [{ id: ownerId }] = await database
    .db('users')
    .insert({ email: 'owner@example.com', name: 'O', role: 'OPERATOR', password_hash: 'x' })
    .returning('id');
  return {
    journal: createExecutionJournal(database.db, secretKey, { get: async () => policy }),
    policy,
    async create(task, apiKey) {
      const created = await store.create(
        {
          owner_id: ownerId,
          task,
          policy: { name: policy.name, version: policy.version, digest: canonicalDigest(policy) },
          stage_role: 'worker',
          permissions: ['*'],
          dropped_permissions: [],
          budget_cents: 1500,
          provider: 'openai',
          model: 'gpt-4o-mini',
          api_key: apiKey,
        },
        { enqueue: false },
      );
      return created.id;
    },
    async cancel(id) {
      await store.cancel(id);
    },
    close: () => database.drop(),
  };
});

journalContract('memory journal (test/helpers/memory-journal.ts)', async () => {
  const journal = new MemoryJournal();
  return {
    journal,
    policy,
    async create(task, apiKey) {
      const execution = testExecution(policy, { task, api_key_override: apiKey !== undefined });
      return journal.add({
        execution,
        policy,
        apiKeyOverride: apiKey,
        transcript: [{ role: 'user', content: task }],
        upstreamArtifacts: [],
        upstreamCertificateDigests: [],
      });
    },
    async cancel(id) {
      journal.cancel(id);
    },
  };
});
