import pg from 'pg';
import type { EmbeddedPasswordFile } from './embedded-password-file.js';
import { EmbeddedPostgresError } from './postgres-user.js';
import { scramVerifier } from './scram-verifier.js';

/** What every cluster made before passwords per cluster had (docs/operations.md, "Embedded PostgreSQL"). */
const PREVIOUS_VERSIONS_PASSWORD = 'postgres';
const INVALID_PASSWORD = '28P01';

export interface EmbeddedSuperuser {
  password: string;
  /** Connected to the `postgres` database as the superuser; the caller ends it. */
  client: pg.Client;
}

/** A connected superuser client, or undefined when the server refuses `password`. */
async function connectAs(port: number, password: string): Promise<pg.Client | undefined> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => {});
    if ((error as { code?: string }).code === INVALID_PASSWORD) return undefined;
    throw error;
  }
}

function refused(clusterDir: string, why: string): EmbeddedPostgresError {
  return new EmbeddedPostgresError(
    `The embedded PostgreSQL in ${clusterDir} ${why}: restore that file, or reset the password as docs/operations.md ("Embedded PostgreSQL") says.`,
  );
}

/**
 * Connects to the running embedded cluster as its superuser with the password of
 * `passwordFile`. A cluster an older shipgate made has no password file and the password
 * `postgres`: it gets a random one, staged on disk before `ALTER ROLE` and committed after, so a
 * start that dies between the two finds the staged password next time. The statement carries the
 * SCRAM secret, never the password.
 */
export async function connectEmbeddedSuperuser(
  port: number,
  passwordFile: EmbeddedPasswordFile,
  clusterDir: string,
): Promise<EmbeddedSuperuser> {
  const committed = passwordFile.read();
  if (committed !== undefined) {
    const client = await connectAs(port, committed);
    if (!client) throw refused(clusterDir, `refuses the password in ${passwordFile.path}`);
    return { password: committed, client };
  }
  const staged = passwordFile.readStaged();
  const stagedClient = staged === undefined ? undefined : await connectAs(port, staged);
  if (stagedClient) {
    passwordFile.commit();
    return { password: staged!, client: stagedClient };
  }
  const client = await connectAs(port, PREVIOUS_VERSIONS_PASSWORD);
  if (!client) throw refused(clusterDir, `has no password file (${passwordFile.path}) and refuses the one older versions set`);
  try {
    const password = passwordFile.stageNew();
    await client.query(`ALTER ROLE postgres PASSWORD ${client.escapeLiteral(scramVerifier(password))}`);
    passwordFile.commit();
    return { password, client };
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
}
