import type { Knex } from 'knex';

/**
 * Runs several reads in one snapshot (a read-only REPEATABLE READ transaction). A record and its
 * child rows change together in one commit (an execution and its certificates, a workflow and its
 * stages); reads on separate connections could show one side of that commit without the other.
 */
export function readInOneSnapshot<T>(db: Knex, read: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(read, { isolationLevel: 'repeatable read', readOnly: true });
}
