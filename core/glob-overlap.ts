import { expandBraces, GlobSyntaxError } from './linear-glob.js';

/**
 * Whether two path globs can match one path: a rule's (linear-glob.ts's syntax) and a pattern a
 * call names, as a shell reads its `*`, `?` and `[…]` (the rule's `.env*` and `cat .e*`;
 * docs/agent-hooks.md, "Shell commands and files"). Each glob is read as an automaton, segment by
 * segment and character by character, and the pair's product walked; no path is ever built. The
 * work is drawn from `budget` (one per call checked, so a call naming thousands of long patterns
 * costs what the budget allows): once it is spent the answer is true, since what it decides is
 * whether a refusal holds, and an unknown answer refuses.
 */
export function globsOverlap(rule: string, pattern: string, budget: OverlapBudget = newOverlapBudget()): boolean {
  let left: string[];
  let right: string[];
  try {
    left = expandBraces(rule);
    right = expandBraces(pattern);
  } catch (error) {
    if (error instanceof GlobSyntaxError) return true;
    throw error;
  }
  return left.some((x) => right.some((y) => pathsOverlap(x, y, budget)));
}

/** The work one call's comparisons may do, in states visited (a product's set-up counts as SETUP_COST of them). */
export const MAX_STATES = 1_000_000;
const SETUP_COST = 64;

export interface OverlapBudget {
  left: number;
}

export const newOverlapBudget = (): OverlapBudget => ({ left: MAX_STATES });

/** One character's test, `/` never in it: a set of code-unit ranges, or all but them. */
interface CharSet {
  negated: boolean;
  ranges: [number, number][];
}
/** A segment's glob: characters' tests, null for a star. */
type SegmentGlob = (CharSet | null)[];
/** A path glob: its segments, null for a `**` segment. */
type PathGlob = (SegmentGlob | null)[];
/** A pattern's segment, and whether it names hidden files (a `.` first). */
interface PatternSegment {
  units: SegmentGlob;
  dotFirst: boolean;
}

const ANY: CharSet = { negated: true, ranges: [] };
/** A `.` written as itself: the one test that names a hidden file in a pattern. */
const DOT: CharSet = { negated: false, ranges: [[46, 46]] };
const literal = (c: string): CharSet => (c === '.' ? DOT : { negated: false, ranges: [[c.charCodeAt(0), c.charCodeAt(0)]] });

/** A `[…]` set at `open` and where it ends, or null when no `]` closes it (bash then reads `[` as itself). */
function setAt(glob: string, open: number): { set: CharSet; end: number } | null {
  let i = open + 1;
  const negated = glob[i] === '!' || glob[i] === '^';
  if (negated) i++;
  const ranges: [number, number][] = [];
  for (let first = true; i < glob.length && (glob[i] !== ']' || first); i++, first = false) {
    if (glob[i] === '\\' && i + 1 < glob.length) i++;
    const low = glob.charCodeAt(i);
    if (glob[i + 1] === '-' && i + 2 < glob.length && glob[i + 2] !== ']') {
      ranges.push([low, glob.charCodeAt(i + 2)]);
      i += 2;
    } else ranges.push([low, low]);
  }
  return i >= glob.length ? null : { set: { negated, ranges }, end: i };
}

function segmentGlob(segment: string): SegmentGlob {
  const units: SegmentGlob = [];
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '*') {
      if (units[units.length - 1] !== null) units.push(null);
    } else if (c === '?') units.push(ANY);
    else if (c === '[') {
      const found = setAt(segment, i);
      units.push(found ? found.set : literal(c));
      if (found) i = found.end;
    } else if (c === '\\' && i + 1 < segment.length) units.push(literal(segment[++i]));
    else units.push(literal(c));
  }
  return units;
}

const pathGlob = (glob: string): PathGlob =>
  glob
    .replace(/^\/+/, '')
    .split('/')
    .map((segment) => (segment === '**' ? null : segmentGlob(segment)));

/** Whether some code unit is in `positive`'s ranges but none of `excluded`'s. */
function someOutside(positive: [number, number][], excluded: [number, number][]): boolean {
  const sorted = [...excluded].sort((x, y) => x[0] - y[0]);
  return positive.some(([low, high]) => {
    let next = low;
    for (const [from, to] of sorted) {
      if (from > next) break;
      if (to >= next) next = to + 1;
    }
    return next <= high;
  });
}

/** Whether one character can pass both tests. */
function setsMeet(x: CharSet, y: CharSet): boolean {
  if (x.negated && y.negated) return true;
  if (x.negated) return someOutside(y.ranges, x.ranges);
  if (y.negated) return someOutside(x.ranges, y.ranges);
  return x.ranges.some(([a, b]) => y.ranges.some(([c, d]) => a <= d && c <= b));
}

/**
 * Whether two sequences of items, null standing for any run of items, can be read as one: the
 * product of the two, walked in order (every move advances one side or both). Used for the
 * characters of two segments and for the segments of two paths. With `first`, the first item
 * read must also pass it (null: the side's star reads it), on a second layer of states.
 */
function sequencesMeet<X, Y>(
  a: (X | null)[],
  b: (Y | null)[],
  meet: (x: X, y: Y) => boolean,
  budget: OverlapBudget,
  first?: (x: X | null, y: Y | null) => boolean,
): boolean {
  const width = b.length + 1;
  const layer = (a.length + 1) * width;
  budget.left -= SETUP_COST + (first ? 2 * layer : layer);
  if (budget.left < 0) return true;
  const reached = new Uint8Array(2 * layer);
  // Layer 0: nothing read yet (only with `first`); layer 1: the rest.
  reached[first ? 0 : layer] = 1;
  for (let s = 0; s < 2; s++)
    for (let p = 0; p <= a.length; p++)
      for (let q = 0; q <= b.length; q++) {
        const at = s * layer + p * width + q;
        if (!reached[at]) continue;
        const x = a[p];
        const y = b[q];
        if (p < a.length && x === null) reached[at + width] = 1;
        if (q < b.length && y === null) reached[at + 1] = 1;
        if (p === a.length || q === b.length) continue;
        // Reading one item: from layer 0 onto layer 1, through `first`.
        const next = layer - s * layer;
        const can = s === 0 ? first! : (u: X | null, v: Y | null) => u === null || v === null || meet(u, v);
        if (x === null && y === null) {
          if (s === 0 && can(null, null)) reached[at + next] = 1;
        } else if (x === null) {
          if (can(null, y)) reached[at + next + 1] = 1;
        } else if (y === null) {
          if (can(x, null)) reached[at + next + width] = 1;
        } else if (can(x, y)) reached[at + next + width + 1] = 1;
      }
  return reached[2 * layer - 1] === 1;
}

/** `y`'s characters but `.`, as one set. */
function withoutDot(y: CharSet): CharSet {
  if (y.negated) return { negated: true, ranges: [...y.ranges, [46, 46]] };
  const ranges = y.ranges.flatMap(([low, high]): [number, number][] =>
    low <= 46 && 46 <= high
      ? (
          [
            [low, 45],
            [47, high],
          ] as [number, number][]
        ).filter(([l, h]) => l <= h)
      : [[low, high]],
  );
  return { negated: false, ranges };
}

/**
 * Whether a rule's segment and a pattern's can name one file. A pattern's `*`, `?` or `[…]`
 * first does not name a hidden file (`.env`), as bash reads it: only a `.` written first does.
 */
function segmentsMeet(rule: SegmentGlob, pattern: PatternSegment, budget: OverlapBudget): boolean {
  if (pattern.dotFirst) return sequencesMeet(rule, pattern.units, setsMeet, budget);
  return sequencesMeet(rule, pattern.units, setsMeet, budget, (x, y) => setsMeet(x ?? ANY, withoutDot(y ?? ANY)));
}

function pathsOverlap(a: string, b: string, budget: OverlapBudget): boolean {
  budget.left -= a.length + b.length;
  if (budget.left < 0) return true;
  const pattern = pathGlob(b).map((units) => units && { units, dotFirst: units[0] === DOT });
  return sequencesMeet(pathGlob(a), pattern, (x, y) => segmentsMeet(x, y, budget), budget);
}

/** Whether a path holds a character a glob reads as more than itself (`*`, `?`, `[`, a brace). */
export function isGlobPattern(path: string): boolean {
  if (/[*?[]/.test(path)) return true;
  let inBrace = false;
  for (const c of path) {
    if (c === '{') inBrace = true;
    else if (c === '}') inBrace = false;
    else if (c === ',' && inBrace) return true;
  }
  return false;
}
