import { globsOverlap, isGlobPattern, type OverlapBudget } from '../glob-overlap.js';

/** Whether a rule's path glob could name a file a pattern the call reads or writes names (`.env*` and `cat .e*`, `grep -r KEY .`'s `**`). */
export function meetsPattern(glob: string, pattern: string, budget: OverlapBudget): boolean {
  const rooted = glob.replace(/^\/+/, '');
  return globsOverlap(rooted, pattern, budget) || (!glob.includes('/') && globsOverlap(`**/${rooted}`, pattern, budget));
}

/**
 * Whether an `allow` path glob names every file a pattern could: only `**` or a literal
 * directory then `/**` does (`src/**` covers `src/*.ts` and `grep -r x src`'s `src/**`); any
 * other glob covers no pattern, so `allow read docs/*` does not cover `grep -r x docs`, which
 * reads `docs/a/b` too (docs/agent-hooks.md, "tool_rules").
 */
export function coversPattern(glob: string, pattern: string): boolean {
  const rooted = glob.replace(/^\/+/, '');
  if (rooted === '**') return true;
  if (!rooted.endsWith('/**')) return false;
  const directory = rooted.slice(0, -3);
  return !isGlobPattern(directory) && !/[\\{]/.test(directory) && `${pattern}/`.startsWith(`${directory}/`);
}

/** `.github` and `.github/workflows` of `.github/workflows/`. */
export const directoriesOf = (under: string) =>
  under
    .split('/')
    .filter(Boolean)
    .map((_, i, names) => names.slice(0, i + 1).join('/'));
