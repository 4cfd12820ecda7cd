import { ValidationError, type ValidationIssue } from '../errors.js';
import { gateSchema, type Gate, type GateVersion } from './gate.js';
import { readGateFile } from './read-gate-file.js';
import type { GateStore } from './release-store.js';
import { normalizeRepoRoot } from './github-identifiers.js';
import { setGate } from './set-gate.js';

export const GATE_FILE_PATH = '.github/shipgate.yml';

/**
 * The gate a `.github/shipgate.yml` holds, from its content as readGateFile read it (null: an empty
 * file, the default gate), or the issues of its fields, located inside the file.
 */
export function gateOfFileContent(content: unknown): { gate: Gate } | { issues: ValidationIssue[] } {
  const parsed = gateSchema.safeParse(content ?? {});
  if (parsed.success) return { gate: parsed.data };
  return { issues: parsed.error.issues.map((i) => ({ loc: [GATE_FILE_PATH, ...i.path.map(String)], msg: i.message, type: i.code })) };
}

/** Records `gate`, read from the repository's `.github/shipgate.yml`, as its newest version. */
export async function saveFileGate(store: GateStore, repo: string, gate: Gate): Promise<{ version: GateVersion; created: boolean }> {
  const repoRoot = normalizeRepoRoot(repo);
  if (!repoRoot) throw ValidationError.single(['repo_root'], 'Expected owner/repo or https://github.com/owner/repo.');
  return setGate(store, repoRoot, gate, 'config_file', null);
}

/**
 * Sets a repository's gate from the text of its `.github/shipgate.yml`. The file holds the gate
 * fields at its top level; an empty file is the default gate. A file over GATE_FILE_MAX_BYTES,
 * invalid YAML or fields: ValidationError with locations inside the file. (The App reads the file
 * from the default branch with core/github/gate-file-problems.ts, which lists what is wrong.)
 */
export async function setGateFromFile(
  store: GateStore,
  repo: string,
  fileText: string,
): Promise<{ version: GateVersion; created: boolean }> {
  const file = readGateFile(fileText);
  if (file.kind === 'too_big') throw ValidationError.single([GATE_FILE_PATH], file.message, 'too_big');
  if (file.kind === 'not_yaml') throw ValidationError.single([GATE_FILE_PATH], `Not valid YAML: ${file.errors[0].message}`, 'yaml_error');
  const read = gateOfFileContent(file.content);
  if ('issues' in read) throw new ValidationError(read.issues);
  return saveFileGate(store, repo, read.gate);
}
