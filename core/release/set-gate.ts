import { gateDigest, type Gate, type GateVersion } from './gate.js';
import type { GateStore } from './release-store.js';

/** Records `gate` as the repository's newest version (unchanged content keeps the current version). */
export function setGate(
  store: GateStore,
  repoRoot: string,
  gate: Gate,
  source: 'api' | 'config_file',
  setBy: string | null,
): Promise<{ version: GateVersion; created: boolean }> {
  return store.saveGate(repoRoot, gate, gateDigest(gate), source, setBy);
}
