import { randomBytes } from 'node:crypto';
import type { ExecutionJournal } from '../../../core/agent/journal.js';
import type { ExecutionStore } from '../../../core/executions/execution-store.js';
import type { Policy } from '../../../core/policies/policy.js';
import { createExecutionJournal } from '../../../db/stores/agent/postgres-execution-journal.js';
import { createExecutionStore } from '../../../db/stores/executions/postgres-execution-store.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { insertOwner } from './execution-fixtures.js';

export interface JournalDatabase {
  database: TestDatabase;
  store: ExecutionStore;
  /** The PostgreSQL journal, every execution on `policy`. */
  journal: ExecutionJournal;
  ownerId: string;
}

/** A fresh test database with an owner, the execution store and the PostgreSQL journal over it. */
export async function openJournalDatabase(policy: Policy): Promise<JournalDatabase> {
  const secretKey = randomBytes(32);
  const database = await createTestDatabase();
  return {
    database,
    store: createExecutionStore(database.db, secretKey),
    journal: createExecutionJournal(database.db, secretKey, { get: async () => policy }),
    ownerId: await insertOwner(database.db),
  };
}
