import { defaultGateVersion, type GateVersion } from './gate.js';

/**
 * The gate that applies to a repository: its newest recorded version, or, when none was ever
 * recorded, the built-in default as version 0. Every reader (the gate route, the decision, the
 * release health) goes through here so they cannot disagree about a repository without a gate.
 */
export function gateInForce(repoRoot: string, recorded: GateVersion | null | undefined): GateVersion {
  return recorded ?? defaultGateVersion(repoRoot);
}
