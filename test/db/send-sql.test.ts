import { jest } from '@jest/globals';
import net from 'node:net';
import { ConflictError, UnavailableError, ValidationError } from '../../core/errors.js';
import { createKnex } from '../../db/create-knex.js';
import { sendSql } from '../../db/send-sql.js';
import { CONFLICT_MESSAGES } from '../../db/translate-driver-error.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db('users').insert({ email: 'taken@example.com', name: 'Taken', password_hash: 'x', role: 'VIEWER' });
});
afterAll(async () => {
  await database.drop();
});

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const duplicateUser = { email: 'taken@example.com', name: 'Again', password_hash: 'x', role: 'VIEWER' };

describe('driver errors are translated where SQL is sent', () => {
  it('turns a unique violation from a builder query into a ConflictError naming what clashed', async () => {
    const error = await database
      .db('users')
      .insert(duplicateUser)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toBe('An account with this email already exists.');
  });

  it('does the same inside a transaction, and for hand-written SQL sent with sendSql', async () => {
    const inTransaction = await database.db.transaction((trx) => trx('users').insert(duplicateUser)).catch((e: unknown) => e);
    expect(inTransaction).toBeInstanceOf(ConflictError);
    const handWritten = await sendSql(database.db, "INSERT INTO users (email, name, password_hash, role) VALUES ($1, 'A', 'x', 'VIEWER')", [
      'taken@example.com',
    ]).catch((e: unknown) => e);
    expect(handWritten).toBeInstanceOf(ConflictError);
    expect((handWritten as Error).message).toBe('An account with this email already exists.');
  });

  it('turns input the database cannot store into a ValidationError', async () => {
    const error = await sendSql(database.db, 'SELECT $1::text AS t', ['nul\u0000byte']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const builder = await database
      .db('users')
      .where({ email: 'nul\u0000@example.com' })
      .first()
      .catch((e: unknown) => e);
    expect(builder).toBeInstanceOf(ValidationError);
  });

  it('turns an unreachable database into UnavailableError, for builder queries and sendSql alike', async () => {
    const unreachable = createKnex(`postgres://postgres@127.0.0.1:${await freePort()}/shipgate`, 1);
    const knexWarnings = jest.spyOn(console, 'log').mockImplementation(() => {}); // "Acquire connection error"
    try {
      await expect(unreachable('users').first()).rejects.toBeInstanceOf(UnavailableError);
      await expect(sendSql(unreachable, 'SELECT 1')).rejects.toBeInstanceOf(UnavailableError);
    } finally {
      knexWarnings.mockRestore();
      await unreachable.destroy();
    }
  });

  it('names only constraints the migrated schema has', async () => {
    const rows = await sendSql<{ name: string }>(
      database.db,
      `SELECT conname AS name FROM pg_constraint UNION SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`,
    );
    const names = new Set(rows.map((r) => r.name));
    expect(Object.keys(CONFLICT_MESSAGES).filter((name) => !names.has(name))).toEqual([]);
  });
});

describe('sendSql', () => {
  it("runs on the transaction's own connection when given a transaction", async () => {
    await database.db.transaction(async (trx) => {
      const [outside] = await sendSql<{ id: string }>(database.db, 'SELECT txid_current_if_assigned()::text AS id');
      const [inside] = await sendSql<{ id: string }>(trx, 'SELECT txid_current()::text AS id');
      const [again] = await trx.select(trx.raw('txid_current()::text AS id'));
      expect(again.id).toBe(inside.id);
      expect(outside.id).toBeNull();
    });
  });

  it('sends a named statement once per connection and reuses its plan', async () => {
    const statement = { name: 'send_sql_test_named', text: 'SELECT $1::int + 1 AS n' };
    expect(await sendSql(database.db, statement, [1])).toEqual([{ n: 2 }]);
    expect(await sendSql(database.db, statement, [41])).toEqual([{ n: 42 }]);
    const prepared = await sendSql<{ name: string }>(database.db, `SELECT name FROM pg_prepared_statements WHERE name = $1`, [
      statement.name,
    ]);
    expect(prepared).toEqual([{ name: statement.name }]);
  });
});
