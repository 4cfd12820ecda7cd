import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verifyCommand } from '../../../server/verify-command.js';

/**
 * Writes into a fresh temporary folder: text and bytes as they are, anything else as indented JSON. Returns a
 * function giving each file's path.
 */
export function fileWriter(prefix: string): (name: string, value: unknown) => string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return (name, value) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, typeof value === 'string' || Buffer.isBuffer(value) ? value : JSON.stringify(value, null, 2));
    return file;
  };
}

/** `shipgate verify` run in-process: its exit code and what it printed on each stream. */
export async function runVerify(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await verifyCommand(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
