import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The embedded cluster's superuser password, in `<data dir>/postgres-password` (mode 0600, owned
 * by whoever runs shipgate; beside the `postgres` cluster entry, not inside it, so PostgreSQL's
 * own tools never meet a file they cannot read, and as root it stays in root's directory while
 * the cluster may live under /var/lib/shipgate; docs/operations.md, "Embedded PostgreSQL").
 *
 * A new password is first staged (`postgres-password.new`, written and flushed), then given to
 * PostgreSQL, then committed by renaming the staged file over the final one: whenever the
 * process dies, one of the files holds the password the cluster has.
 */
export interface EmbeddedPasswordFile {
  /** Where the committed password is (said in docs and logs; never its content). */
  path: string;
  /** The committed password, if any (its mode is tightened to 0600 on the way). */
  read(): string | undefined;
  /** The staged password a start that died midway left, if any. */
  readStaged(): string | undefined;
  /** A new random password, written to the staged file and flushed to disk before it is returned. */
  stageNew(): string;
  /** Makes the staged password the committed one (an atomic rename, then the directory flushed). */
  commit(): void;
}

function readPassword(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export function embeddedPasswordFile(dataDir: string): EmbeddedPasswordFile {
  const file = path.join(dataDir, 'postgres-password');
  const staged = `${file}.new`;
  return {
    path: file,
    read() {
      const password = readPassword(file);
      if (password !== undefined) fs.chmodSync(file, 0o600);
      return password;
    },
    readStaged: () => readPassword(staged),
    stageNew() {
      const password = randomBytes(32).toString('base64url');
      const fd = fs.openSync(staged, 'w', 0o600);
      try {
        fs.fchmodSync(fd, 0o600); // a leftover staged file keeps its mode on open: set it
        fs.writeSync(fd, `${password}\n`);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      return password;
    },
    commit() {
      fs.renameSync(staged, file);
      const dir = fs.openSync(dataDir, 'r');
      try {
        fs.fsyncSync(dir);
      } finally {
        fs.closeSync(dir);
      }
    },
  };
}
