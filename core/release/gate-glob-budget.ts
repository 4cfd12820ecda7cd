import { expandBraces, GlobSyntaxError, MAX_EXPANDED_LENGTH } from '../linear-glob.js';

/**
 * The most characters a gate's globs may add up to, braces expanded (docs/operations.md, "Regular
 * expressions"). Checking and compiling a glob cost what its expansion holds: 1 MB of gate whose
 * globs each expanded to a few kilobytes took seconds to check and seconds more to compile at its
 * first decision. A real gate's globs come to a few kilobytes; the gate file holds at most 64 KiB.
 */
export const GATE_GLOB_BUDGET = 128 * 1024;

type Loc = (string | number)[];

const items = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;

/** Every glob list of a gate as sent (not yet parsed), where it is. */
function* globLists(gate: unknown): Generator<[Loc, unknown]> {
  for (const [i, check] of items(field(gate, 'required_checks')).entries()) yield [['required_checks', i, 'paths'], field(check, 'paths')];
  for (const [i, rule] of items(field(gate, 'rules')).entries())
    for (const key of ['paths', 'paths_ignore', 'base_branches']) yield [['rules', i, 'if', key], field(field(rule, 'if'), key)];
  yield [['protected_paths', 'paths'], field(field(gate, 'protected_paths'), 'paths')];
}

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
 * Where a gate as sent first passes GATE_GLOB_BUDGET, or null: found before any glob is checked, so
 * the work refusing a gate costs is at most the budget's.
 */
export function gateGlobBudgetProblem(gate: unknown): { path: Loc; message: string } | null {
  let spent = 0;
  for (const [loc, globs] of globLists(gate))
    for (const [i, glob] of items(globs).entries()) {
      if (typeof glob !== 'string') continue;
      spent += expandedLength(glob);
      if (spent > GATE_GLOB_BUDGET)
        return {
          path: [...loc, i],
          message: `The gate's globs, braces expanded, add up to more than ${GATE_GLOB_BUDGET} characters here: list fewer globs, or fewer alternatives in braces.`,
        };
    }
  return null;
}
