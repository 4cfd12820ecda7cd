import { parse } from 'yaml';
import { ValidationError } from '../errors.js';
import { gateSchema, type GateVersion } from './gate.js';
import type { GateStore } from './release-store.js';
import { normalizeRepoRoot } from './repo-names.js';
import { setGate } from './set-gate.js';

export const GATE_FILE_PATH = '.github/shipgate.yml';

/**
 * Sets a repository's gate from the text of its `.github/shipgate.yml` (read by the App from the
 * default branch). The file holds the gate fields at its top level; an empty file is the
 * default gate. Invalid YAML or fields: ValidationError with locations inside the file.
 */
export async function setGateFromFile(
  store: GateStore,
  repo: string,
  fileText: string,
): Promise<{ version: GateVersion; created: boolean }> {
  const repoRoot = normalizeRepoRoot(repo);
  if (!repoRoot) throw ValidationError.single(['repo_root'], 'Expected owner/repo or https://github.com/owner/repo.');
  let content: unknown;
  try {
    content = parse(fileText) ?? {};
  } catch (error) {
    throw ValidationError.single([GATE_FILE_PATH], `Not valid YAML: ${(error as Error).message.split('\n')[0]}`, 'yaml_error');
  }
  const parsed = gateSchema.safeParse(content);
  if (!parsed.success) {
    throw new ValidationError(
      parsed.error.issues.map((i) => ({ loc: [GATE_FILE_PATH, ...i.path.map(String)], msg: i.message, type: i.code })),
    );
  }
  return setGate(store, repoRoot, parsed.data, 'config_file', null);
}
