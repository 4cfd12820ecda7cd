/**
 * Globs matched in time bounded by the value's length times the glob's (docs/agent-hooks.md,
 * "tool_rules"): what a tool rule is matched against is written by the agent, and a regular
 * expression compiled from a glob with several stars backtracks on a crafted value (a 64 KiB
 * command held picomatch's matcher for minutes). Here no part is ever tried twice from the same
 * place: the parts between stars have a fixed length, so the leftmost place each fits is the one
 * to take.
 *
 * Syntax: `*` any run of characters (in a path glob, within one segment); `**` as a whole path
 * segment, any number of segments (zero included); `?` one character (not `/` in a path glob);
 * `[abc]`, `[a-z]`, `[!abc]` or `[^abc]` one character of (or not of) a set; `{a,b}` either
 * alternative; `\` takes the next character as it is. Extglobs (`@(a|b)`, …) are refused.
 */
export type GlobKind = 'path' | 'text';

/** Why a glob cannot be compiled. */
export class GlobSyntaxError extends Error {
  override name = 'GlobSyntaxError';
}

/** Alternatives a glob's braces may expand to, at most. */
const MAX_ALTERNATIVES = 256;
/**
 * Characters a glob's brace alternatives may add up to, at most: matching and checking cost what
 * the expansion holds, so 256 alternatives of 300 characters each made a 500 KB gate of such globs
 * take a minute to check (docs/operations.md, "Regular expressions").
 */
export const MAX_EXPANDED_LENGTH = 2048;

/** One character's test, as a regular expression's source (one UTF-16 unit, no quantifier). */
type Unit = string;
/** A run of units between stars: it matches exactly `length` characters. */
interface Part {
  re: RegExp;
  length: number;
}
/** A glob without braces and stars' runs split: `parts[0]` before the first star, the last after the last one. */
interface Starred {
  parts: Part[];
  lengths: number[];
}

const SPECIAL = new Set('\\^$.*+?()[]{}|/-');
// A lookup, not a replace per character: that replace was most of the cost of compiling a glob.
const escapeChar = (c: string) => (SPECIAL.has(c) ? `\\${c}` : c);

/** The index of the `}` closing the `{` at `open` (escapes and classes skipped), or -1. */
function closingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end > 0) i = end;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/** The top-level comma-separated alternatives of a brace's body. */
function alternativesOf(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}

/** The glob with its braces expanded: `a{b,c}d` -> `abd`, `acd`; a brace without a comma stays as written. */
export function expandBraces(glob: string): string[] {
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] === '\\') {
      i++;
      continue;
    }
    if (glob[i] !== '{') continue;
    const close = closingBrace(glob, i);
    if (close < 0) return [glob];
    const options = alternativesOf(glob.slice(i + 1, close));
    if (options.length < 2) continue;
    const head = glob.slice(0, i);
    const tails = expandBraces(glob.slice(close + 1));
    const out: string[] = [];
    let length = 0;
    for (const option of options)
      for (const middle of expandBraces(option))
        for (const tail of tails) {
          out.push(head + middle + tail);
          length += head.length + middle.length + tail.length;
          if (out.length > MAX_ALTERNATIVES) throw new GlobSyntaxError(`its braces expand to more than ${MAX_ALTERNATIVES} globs`);
          if (length > MAX_EXPANDED_LENGTH)
            throw new GlobSyntaxError(`its braces expand to more than ${MAX_EXPANDED_LENGTH} characters of globs`);
        }
    return out;
  }
  return [glob];
}

/** Each class's regular expression source, by the class as written, once known to compile: a class repeats in every alternative of its glob. */
const checkedClasses = new Set<string>();

/** A `[...]` class starting at `open`: its regular expression source and where it ends. */
function classAt(glob: string, open: number, kind: GlobKind): { unit: Unit; end: number } {
  let i = open + 1;
  const negated = glob[i] === '!' || glob[i] === '^';
  if (negated) i++;
  let body = '';
  // A `]` first in the set is one of its characters.
  for (let first = true; i < glob.length && (glob[i] !== ']' || first); i++, first = false) {
    const c = glob[i];
    if (c === '\\' && i + 1 < glob.length) body += escapeChar(glob[++i]);
    else if (c === '-' && !first && glob[i + 1] !== ']') body += '-';
    else body += escapeChar(c);
  }
  if (i >= glob.length) throw new GlobSyntaxError('a `[` is not closed by `]`');
  const notSlash = kind === 'path' ? '/' : '';
  const unit = negated ? `[^${body}${notSlash}]` : `[${body}]`;
  if (checkedClasses.has(unit)) return { unit, end: i };
  try {
    new RegExp(unit);
  } catch {
    // A range out of order (`[z-a]`, `[a-\\]`): no character is in it, and the regular expression refuses it.
    throw new GlobSyntaxError(`the set \`${glob.slice(open, i + 1)}\` has a range whose start is past its end`);
  }
  if (checkedClasses.size >= 10_000) checkedClasses.clear();
  checkedClasses.add(unit);
  return { unit, end: i };
}

/**
 * The units of a glob without braces, stars marked null (runs of stars as one), into `units`; with
 * none, only what would throw is looked for (checkGlob), at a fraction of the cost.
 */
function unitsOf(glob: string, kind: GlobKind, units: (Unit | null)[] | null = []): (Unit | null)[] {
  if (/[@!+*?]\(/.test(glob.replace(/\\./g, ''))) throw new GlobSyntaxError('extglobs (`@(a|b)`, `!(x)`, …) are not supported');
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '[') {
      const { unit, end } = classAt(glob, i, kind);
      units?.push(unit);
      i = end;
    } else if (c === '\\') {
      if (i + 1 >= glob.length) throw new GlobSyntaxError('it ends with `\\`');
      units?.push(escapeChar(glob[++i]));
    } else if (!units) continue;
    else if (c === '*') {
      if (units[units.length - 1] !== null) units.push(null);
    } else if (c === '?') units.push(kind === 'path' ? '[^/]' : '[\\s\\S]');
    else units.push(escapeChar(c));
  }
  return units ?? [];
}

/** Units split at the stars into fixed-length parts, each one regular expression of no quantifier. */
function starredOf(units: (Unit | null)[]): Starred {
  const parts: Part[] = [];
  let run: Unit[] = [];
  const close = () => {
    parts.push({ re: new RegExp(run.join(''), 'g'), length: run.length });
    run = [];
  };
  for (const unit of units) {
    if (unit === null) close();
    else run.push(unit);
  }
  close();
  return { parts, lengths: parts.map((part) => part.length) };
}

/** Whether `part` matches `value` at exactly `at`. */
function partAt(part: Part, value: string, at: number): boolean {
  if (part.length === 0) return true;
  if (at < 0 || at + part.length > value.length) return false;
  part.re.lastIndex = at;
  const found = part.re.exec(value);
  return found !== null && found.index === at;
}

/** The leftmost place at or after `from` where `part` matches and ends by `until`, or -1. */
function partFrom(part: Part, value: string, from: number, until: number): number {
  if (part.length === 0) return from;
  part.re.lastIndex = from;
  const found = part.re.exec(value);
  return found !== null && found.index + part.length <= until ? found.index : -1;
}

/**
 * Whether pieces of fixed lengths fit a sequence of `size` items in order, any gap between them
 * (their stars): the first at its start, the last at its end, each other at the leftmost place
 * it fits after the one before (`find`, or -1), which leaves the most room for the rest. A
 * single piece must fill the sequence. `fits(i, at)` says whether piece `i` matches at `at`.
 */
function fitInOrder(
  lengths: readonly number[],
  size: number,
  fits: (i: number, at: number) => boolean,
  find: (i: number, from: number, until: number) => number,
): boolean {
  const count = lengths.length;
  if (count === 1) return size === lengths[0] && fits(0, 0);
  const lastAt = size - lengths[count - 1];
  if (lastAt < lengths[0] || !fits(0, 0) || !fits(count - 1, lastAt)) return false;
  let at = lengths[0];
  for (let i = 1; i < count - 1; i++) {
    const found = find(i, at, lastAt);
    if (found < 0) return false;
    at = found + lengths[i];
  }
  return true;
}

/** Whether a starred glob matches the whole value, character by character. */
function starredMatches(glob: Starred, value: string): boolean {
  const { parts } = glob;
  return fitInOrder(
    glob.lengths,
    value.length,
    (i, at) => partAt(parts[i], value, at),
    (i, from, until) => partFrom(parts[i], value, from, until),
  );
}

/** A path glob: its segments' globs, with `**` segments splitting them into groups that match consecutive segments. */
function segmentsMatcher(glob: string): (segments: string[]) => boolean {
  const groups: Starred[][] = [[]];
  for (const segment of glob.split('/')) {
    if (segment === '**') {
      if (groups[groups.length - 1].length > 0 || groups.length === 1) groups.push([]);
    } else groups[groups.length - 1].push(starredOf(unitsOf(segment, 'path')));
  }
  const lengths = groups.map((group) => group.length);
  return (segments) => {
    const fits = (g: number, at: number) => groups[g].every((part, i) => starredMatches(part, segments[at + i]));
    const find = (g: number, from: number, until: number) => {
      for (let at = from; at + lengths[g] <= until; at++) if (fits(g, at)) return at;
      return -1;
    };
    return fitInOrder(lengths, segments.length, fits, find);
  };
}

/**
 * Throws GlobSyntaxError where compileGlob would, without building its matcher (no regular
 * expression per part): what checking a gate or a policy costs stays what its text costs.
 */
export function checkGlob(glob: string, kind: GlobKind): void {
  for (const alternative of expandBraces(glob))
    if (kind === 'text') unitsOf(alternative, kind, null);
    else for (const segment of alternative.split('/')) unitsOf(segment, kind, null);
}

/**
 * A glob's matcher (any of its brace alternatives). `text`: `*` matches anything, `/` included
 * (commands, hosts, tool names); `path`: as a path, segment by segment. Throws GlobSyntaxError.
 */
export function compileGlob(glob: string, kind: GlobKind): (value: string) => boolean {
  if (kind === 'path') return compilePathGlobs([glob]);
  const matchers = expandBraces(glob).map((alternative) => {
    const starred = starredOf(unitsOf(alternative, 'text'));
    return (value: string) => starredMatches(starred, value);
  });
  return matchers.length === 1 ? matchers[0] : (value) => matchers.some((m) => m(value));
}

/**
 * A text glob's brace alternatives, each as its characters' tests (regular expressions' sources of
 * one UTF-16 unit) with null for a star: what core/policies/text-overlap.ts walks. Throws GlobSyntaxError.
 */
export const textGlobUnits = (glob: string): (string | null)[][] => expandBraces(glob).map((alternative) => unitsOf(alternative, 'text'));

/** Whether a path matches any of the path globs (each as compileGlob's `path`), the path split once. Throws GlobSyntaxError. */
export function compilePathGlobs(globs: readonly string[]): (path: string) => boolean {
  const matchers = globs.flatMap((glob) => expandBraces(glob).map(segmentsMatcher));
  return (path) => {
    const segments = path.split('/');
    return matchers.some((m) => m(segments));
  };
}
