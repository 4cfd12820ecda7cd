import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PostgresUser } from './postgres-user.js';

/**
 * The embedded cluster serves shipgate alone: over loopback TCP, with the superuser's password
 * checked by SCRAM. No `local` line: the server opens no Unix socket, and one turned on by hand
 * admits nobody. No `trust`, no cleartext `password` method.
 */
const PG_HBA = `# Written by shipgate on every start of its embedded PostgreSQL; edits are replaced
# (docs/operations.md, "Embedded PostgreSQL"). Use DATABASE_URL for a server of your own.
# TYPE  DATABASE  USER  ADDRESS       METHOD
host    all       all   127.0.0.1/32  scram-sha-256
`;

/**
 * Writes the cluster's pg_hba.conf when it differs, before the server starts: a cluster made by
 * an older shipgate (cleartext `password`) or edited by hand gets the same rules as a new one.
 * Written under a temporary name and renamed, owned by `user` (as root, the postgres user), so a
 * start that dies midway leaves the old file or the new one, never half of one.
 */
export function writeEmbeddedPgHba(clusterDir: string, user: PostgresUser | undefined): void {
  const file = path.join(clusterDir, 'pg_hba.conf');
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === PG_HBA) return;
  const partial = `${file}.partial-${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(partial, PG_HBA, { mode: 0o600 });
  if (user) fs.chownSync(partial, user.uid, user.gid);
  fs.renameSync(partial, file);
}
