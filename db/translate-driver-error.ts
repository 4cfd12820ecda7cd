import { ConflictError, UnavailableError } from '../core/errors.js';

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '53300']);

/** Maps a pg/knex error to a core error where one applies; anything else is returned as is. */
export function translateDriverError(error: unknown, conflictMessage = 'Conflict.'): unknown {
  const e = error as { code?: string; name?: string; message?: string };
  if (e?.code === '23505') return new ConflictError(conflictMessage);
  if (e?.code && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('08'))) return new UnavailableError('Database unavailable.');
  if (e?.name === 'KnexTimeoutError' || /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect/i.test(e?.message ?? '')) {
    return new UnavailableError('Database unavailable.');
  }
  return error;
}
