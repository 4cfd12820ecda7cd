import { globBudgetProblem } from '../glob-budget.js';

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

function* globsOf(gate: unknown): Generator<[Loc, unknown]> {
  for (const [loc, globs] of globLists(gate)) for (const [i, glob] of items(globs).entries()) yield [[...loc, i], glob];
}

/**
 * Where a gate as sent first passes the glob budget (core/glob-budget.ts), or null: found before
 * any of its globs is checked, as the gate's schema runs it first.
 */
export function gateGlobBudgetProblem(gate: unknown): { path: Loc; message: string } | null {
  return globBudgetProblem("The gate's", globsOf(gate));
}
