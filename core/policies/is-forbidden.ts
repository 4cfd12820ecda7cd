import { capabilityMatches } from './capability-matches.js';
import { loosePath, looseText } from './loose-spelling.js';
import { isOutsideRoot } from './outside-root.js';

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

/**
 * The first path outside the repository root (an absolute one; paths inside are relative and
 * checked as capabilities) that a `forbidden` file pattern of the access (`read` or `write`)
 * refuses wherever in it the pattern's names appear, or null: `fs:write:.github/*` refuses
 * `/home/u/other/.github/workflows/ci.yml` (docs/agent-hooks.md, "tool_rules"). Read as
 * loose-spelling.ts reads a path; each pattern is tried at each name, in time in proportion to
 * the path times the pattern.
 */
export function forbiddenOutsideRoot(forbidden: readonly string[], access: 'read' | 'write', paths: readonly string[]): string | null {
  const patterns = forbidden.flatMap((pattern) => {
    const parts = looseText(pattern).split(/[:/]/);
    const open = parts[parts.length - 1] === '*';
    const fixed = open ? parts.slice(0, -1) : parts;
    const ofAccess = (fixed[0] === 'fs' || fixed[0] === '*') && (fixed[1] === access || fixed[1] === '*');
    return ofAccess && fixed.length > 2 ? [{ names: fixed.slice(2), open }] : [];
  });
  if (patterns.length === 0) return null;
  for (const path of paths) {
    if (!isOutsideRoot(path)) continue;
    const names = loosePath(path)
      .split('/')
      .filter((n) => n !== '');
    const refused = patterns.some(({ names: want, open }) => {
      for (let i = 0; i + want.length <= names.length; i++) {
        if (!open && names.length - i !== want.length) continue;
        if (want.every((name, k) => name === '*' || name === names[i + k])) return true;
      }
      return false;
    });
    if (refused) return `fs:${access}:${path}`;
  }
  return null;
}
