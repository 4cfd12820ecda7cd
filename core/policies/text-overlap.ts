import type { OverlapBudget } from '../glob-overlap.js';
import { GlobSyntaxError, textGlobUnits } from '../linear-glob.js';

/** Where a command form holds what the line computes: a `$` and the rest of its word (`$g`, `${F}`, `$(…)`'s mark, `pre$x`). */
const COMPUTED = /\$[^ ]*/g;

/**
 * Whether a rule's text glob could match a command form whose computed parts may be anything
 * (docs/agent-hooks.md, "Shell commands and files"): `g=git; $g push --force`, `git $(echo push)
 * --force` and `git push $F` are read as `<any> push --force`, `git <any> --force`, `git push <any>`,
 * and `git push --force*` holds for each. The glob is read as an automaton over its units (null:
 * a star) and walked over the form: a literal character moves each state past a unit that takes
 * it (a star keeps it), a computed part moves every state to any state after it. The work is drawn
 * from `budget` (the call's, shared with its path comparisons); once it is spent, or when the glob
 * cannot be read, the answer is true: a refusal holds.
 */
export function textMeetsComputed(glob: string, form: string, budget: OverlapBudget): boolean {
  const alternatives = testsOf(glob);
  if (alternatives === null) return true;
  const pieces = form.split(COMPUTED);
  return alternatives.some((tests) => {
    budget.left -= SETUP_COST;
    return budget.left < 0 || walks(tests, pieces, budget);
  });
}

/** What setting up one walk costs, in states (glob-overlap.ts's measure). */
const SETUP_COST = 64;
type UnitTests = (RegExp | null)[];
const compiled = new Map<string, UnitTests[] | null>();

/** A glob's alternatives as their units' tests (null: a star), built once per glob; null when it cannot be read. */
function testsOf(glob: string): UnitTests[] | null {
  let found = compiled.get(glob);
  if (found !== undefined) return found;
  try {
    found = textGlobUnits(glob).map((units) => units.map((unit) => (unit === null ? null : new RegExp(`^${unit}$`))));
  } catch (error) {
    if (!(error instanceof GlobSyntaxError)) throw error;
    found = null;
  }
  if (compiled.size >= 10_000) compiled.clear();
  compiled.set(glob, found);
  return found;
}

/** `pieces`: the form's literal text, a computed part between each two. */
function walks(tests: UnitTests, pieces: string[], budget: OverlapBudget): boolean {
  const end = tests.length;
  // The glob's trailing stars start at `rest`: a state there or past it matches whatever follows.
  let rest = end;
  while (rest > 0 && tests[rest - 1] === null) rest--;
  /** The states with those reachable from them without a character: past each star. */
  const closed = (states: Set<number>) => {
    for (const state of states) if (state < end && tests[state] === null) states.add(state + 1);
    return states;
  };
  let states = closed(new Set([0]));
  const settled = () => rest < end && [...states].some((state) => state >= rest);
  for (let p = 0; p < pieces.length; p++) {
    if (p > 0) {
      // Anything at all: every state from the earliest one on.
      const from = Math.min(...states);
      states = new Set(Array.from({ length: end - from + 1 }, (_, i) => from + i));
    }
    if (settled()) return true;
    const piece = pieces[p];
    for (let i = 0; i < piece.length; i++) {
      const c = piece[i];
      budget.left -= states.size + 1;
      if (budget.left < 0) return true;
      const next = new Set<number>();
      for (const state of states) {
        if (state >= end) continue;
        const test = tests[state];
        if (test === null) next.add(state);
        else if (test.test(c)) next.add(state + 1);
      }
      if (next.size === 0) return false;
      states = closed(next);
      if (settled()) return true;
    }
  }
  return states.has(end);
}
