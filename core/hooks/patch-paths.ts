/** The header lines of a patch that name a file it writes: apply_patch's (`*** Add File: x`, `*** Update File: x`, `*** Delete File: x`, `*** Move to: x`) and a unified diff's (`+++ b/x`, `--- a/x`). */
const PATCH_FILE = /^(?:\*\*\* (?:Add|Update|Delete) File: |\*\*\* Move to: |\+\+\+ |--- )([^\n]+)$/gm;

/**
 * The files a patch tool's patch writes (Copilot CLI's `apply_patch`; docs/agent-hooks.md,
 * "Tools and capabilities"): each header's path, a unified diff's `a/` and `b/` prefixes
 * dropped and `/dev/null` skipped.
 */
export function patchPaths(patch: string): string[] {
  const paths = new Set<string>();
  for (const [, named] of patch.matchAll(PATCH_FILE)) {
    const path = named.trim().replace(/^[ab]\//, '');
    if (path !== '' && path !== '/dev/null') paths.add(path);
  }
  return [...paths];
}
