import { expandBraces, GlobSyntaxError, MAX_EXPANDED_LENGTH } from './linear-glob.js';

/**
 * The most characters the globs of one gate, or of one policy's tool rules, may add up to, braces
 * expanded (docs/operations.md, "Regular expressions"). Checking and compiling a glob cost what its
 * expansion holds: 1 MB of gate whose globs each expanded to a few kilobytes took seconds to check
 * and seconds more to compile at its first decision. Real ones come to a few kilobytes.
 */
export const GLOB_BUDGET = 128 * 1024;

type Loc = (string | number)[];

/** How many characters a glob expands to; one whose braces expand past the limit counts as the limit (its own check refuses it). */
function expandedLength(glob: string): number {
  try {
    return expandBraces(glob).reduce((sum, alternative) => sum + alternative.length, 0);
  } catch (error) {
    if (error instanceof GlobSyntaxError) return MAX_EXPANDED_LENGTH;
    throw error;
  }
}

/**
 * Where `globs` (each where it is) first pass GLOB_BUDGET, or null; a value that is no string is
 * passed over (its own check refuses it). Stops there, so refusing costs at most the budget's work.
 */
export function globBudgetProblem(whose: string, globs: Iterable<[Loc, unknown]>): { path: Loc; message: string } | null {
  let spent = 0;
  for (const [path, glob] of globs) {
    if (typeof glob !== 'string') continue;
    spent += expandedLength(glob);
    if (spent > GLOB_BUDGET)
      return {
        path,
        message: `${whose} globs, braces expanded, add up to more than ${GLOB_BUDGET} characters here: list fewer globs, or fewer alternatives in braces.`,
      };
  }
  return null;
}
