import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

const ITERATIONS = 4096; // PostgreSQL's scram_iterations default

/**
 * The SCRAM-SHA-256 secret PostgreSQL stores for `password` (RFC 5802 and 7677, in the format
 * `pg_authid.rolpassword` holds), computed here as psql's `\password` does, so
 * `ALTER ROLE ... PASSWORD '<secret>'` never carries the password itself to a server that may
 * log the statement (docs/operations.md, "Embedded PostgreSQL"). The password must be printable
 * ASCII, which SASLprep leaves unchanged.
 */
export function scramVerifier(password: string): string {
  if (!/^[\x21-\x7e]+$/.test(password)) throw new Error('scramVerifier takes printable ASCII passwords only');
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, ITERATIONS, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${ITERATIONS}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
