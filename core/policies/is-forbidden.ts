import { capabilityMatches } from './capability-matches.js';
import { loosePath, looseText } from './loose-spelling.js';

const FILE_CAPABILITY = /^(fs:(?:read|write):)(.*)$/s;

/**
 * Whether a policy's `forbidden` patterns refuse the capability. A file capability
 * (`fs:write:<path>`) is also refused as the agent's machine may read its path
 * (loose-spelling.ts): `forbidden: ["fs:write:.github/*"]` refuses `fs:write:.GitHub/Workflows/ci.yml`.
 */
export function isForbidden(forbidden: readonly string[], capability: string): boolean {
  if (forbidden.some((pattern) => capabilityMatches(pattern, capability))) return true;
  const file = FILE_CAPABILITY.exec(capability);
  if (!file) return false;
  const loose = `${file[1]}${loosePath(file[2])}`;
  return forbidden.some((pattern) => capabilityMatches(looseText(pattern), loose));
}
