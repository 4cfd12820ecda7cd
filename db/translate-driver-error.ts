import { ConflictError, UnavailableError, ValidationError } from '../core/errors.js';

/** The database could not be reached (refused, reset, shutting down, timed out): a 503, counted by the outage tracker. */
export class DatabaseUnavailableError extends UnavailableError {
  constructor() {
    super('Database unavailable.');
  }
}

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '53300']);
// Data exceptions only client input can cause once schemas have passed it: a NUL character
// (22021, 22P05), a value too long (22001) or out of range (22003), text that is not the
// column's type (22P02, 22007, 22008). Bad input is a 422, never a 500.
const UNSTORABLE_INPUT_CODES = new Set(['22021', '22P05', '22001', '22003', '22P02', '22007', '22008']);

/**
 * What a unique violation means, by the constraint (or unique index) that caught it. Each is a
 * race the store's lock or check would otherwise have answered (test/db/send-sql.test.ts checks
 * that every name exists in the migrated schema).
 */
export const CONFLICT_MESSAGES: Record<string, string> = {
  users_email_unique: 'An account with this email already exists.',
  policies_pkey: 'A version of this policy was created concurrently; retry.',
  gate_versions_pkey: 'The gate changed concurrently; try again.',
  promotions_snapshot_id_status_unique: 'The snapshot was promoted concurrently.',
  mcp_servers_pkey: 'An MCP server with this name is already registered; delete it first to replace it.',
};

/**
 * Maps a pg/knex error to a core error where one applies; anything else is returned as is.
 * Called where SQL is sent (db/create-knex.ts, db/send-sql.ts), never by stores one by one.
 */
export function translateDriverError(error: unknown): unknown {
  const e = error as { code?: string; name?: string; message?: string; constraint?: string };
  if (e?.code === '23505') return new ConflictError(CONFLICT_MESSAGES[e.constraint ?? ''] ?? 'Conflict.');
  if (e?.code && UNSTORABLE_INPUT_CODES.has(e.code)) {
    return ValidationError.single(
      ['request'],
      'A value cannot be stored (for example, it contains a NUL character or is out of range).',
      'unstorable_value',
    );
  }
  if (e?.code && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('08'))) return new DatabaseUnavailableError();
  if (
    e?.name === 'KnexTimeoutError' ||
    /Connection terminated|Connection ended unexpectedly|not queryable|connect ECONNREFUSED|timeout exceeded when trying to connect/i.test(
      e?.message ?? '',
    )
  ) {
    return new DatabaseUnavailableError();
  }
  return error;
}
