import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { postgresBinaries } from '../../../db/postgres-binaries.js';
import { postgresUser } from '../../../db/postgres-user.js';

/** The row `makePreviousVersionCluster` leaves in its `kept` table. */
export const KEPT_NOTE = 'written before passwords per cluster';

/**
 * `dataDir/postgres` as shipgate made it before each cluster had a password of its own: initdb
 * with the superuser password `postgres` and `--auth=password` (cleartext, for local and host
 * lines alike), then the `shipgate` database. A table `kept` with one row stands for its data.
 * Written in PostgreSQL's single-user mode, so no server or port is needed. `superuserPassword`
 * other than `postgres` is the state a start left that died after changing the password and
 * before recording it.
 */
export async function makePreviousVersionCluster(dataDir: string, superuserPassword = 'postgres'): Promise<void> {
  const user = postgresUser();
  const binaries = await postgresBinaries(user);
  const cluster = path.join(dataDir, 'postgres');
  fs.mkdirSync(cluster, { mode: 0o700 });
  const pwfile = path.join(dataDir, '.pwfile-previous-version');
  fs.writeFileSync(pwfile, `${superuserPassword}\n`, { mode: 0o600 });
  if (user) for (const file of [cluster, pwfile]) fs.chownSync(file, user.uid, user.gid);
  const asPostgres = (binary: string, args: string[], input?: string) => {
    const result = spawnSync(binary, args, {
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: { ...process.env, LC_ALL: 'C' },
      input,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`${path.basename(binary)} failed: ${result.stderr}`);
  };
  try {
    asPostgres(binaries.initdb, [
      `--pgdata=${cluster}`,
      '--auth=password',
      '--username=postgres',
      `--pwfile=${pwfile}`,
      '--encoding=UTF8',
      '--no-locale',
    ]);
  } finally {
    fs.rmSync(pwfile);
  }
  asPostgres(binaries.postgres, ['--single', '-D', cluster, 'postgres'], 'CREATE DATABASE shipgate;\n');
  asPostgres(
    binaries.postgres,
    ['--single', '-D', cluster, 'shipgate'],
    `CREATE TABLE kept (note text);\nINSERT INTO kept VALUES ('${KEPT_NOTE}');\n`,
  );
}
