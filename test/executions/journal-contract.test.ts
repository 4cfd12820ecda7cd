import { randomBytes } from 'node:crypto';
import { policyRef } from '../../core/policies/policy-digest.js';
import { createExecutionJournal } from '../../db/stores/agent/postgres-execution-journal.js';
import { createExecutionStore } from '../../db/stores/executions/postgres-execution-store.js';
import { defaultPolicy, testExecution } from '../agent/support/agent-harness.js';
import { MemoryJournal } from '../support/memory-journal.js';
import { createTestDatabase } from '../support/test-database.js';
import { insertOwner, newExecution } from './support/execution-fixtures.js';
import { journalContract } from './support/journal-contract.js';

const policy = defaultPolicy();

journalContract('PostgreSQL journal (db/stores/agent/postgres-execution-journal.ts)', async () => {
  const database = await createTestDatabase();
  const secretKey = randomBytes(32);
  const store = createExecutionStore(database.db, secretKey);
  const ownerId = await insertOwner(database.db);
  return {
    journal: createExecutionJournal(database.db, secretKey, { get: async () => policy }),
    policy,
    async create(task, apiKey) {
      const created = await store.create(newExecution(ownerId, policyRef(policy), { task, api_key: apiKey }), { enqueue: false });
      return created.id;
    },
    async cancel(id) {
      await store.cancel(id);
    },
    close: () => database.drop(),
  };
});

journalContract('memory journal (test/support/memory-journal.ts)', async () => {
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
