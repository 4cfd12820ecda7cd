import { checkGlob, compileGlob } from '../linear-glob.js';

/** A line of a CODEOWNERS file shipgate (like GitHub) skips, and why, in words people read. */
export interface CodeownersProblem {
  /** 1-based line number in the file. */
  line: number;
  message: string;
}

/** A parsed CODEOWNERS file (docs/release-gate.md, "Code owners"). */
export interface Codeowners {
  /**
   * The owners of one repository path (no leading `/`), as written and lower-cased: `@user`, `@org/team`, or an
   * e-mail address. The LAST line whose pattern matches wins; a matching line without owners means nobody owns the
   * path (`[]`), as does no matching line. An e-mail address is kept as written: GitHub maps it to the account it
   * is verified for, which shipgate cannot see, so it never matches a login.
   */
  ownersOf(path: string, budget: CodeownersBudget): string[];
  /** The lines skipped as invalid (GitHub skips them too); the other lines still apply. */
  problems: CodeownersProblem[];
}

/**
 * What one judgement of code owners may spend (docs/release-gate.md, "Code owners"): a path is checked against the
 * file's lines from the last, so 2,000 lines against a change of 3,000 files took 25 s of matching, and a crafted 3
 * MB file (100,000 lines) against one deep path 10 s, holding the event loop. A line whose longest literal run the
 * path lacks costs one unit; one the matcher runs for, GLOB_CHECK_UNITS a candidate (the path and each directory
 * above it). Past the budget ownersOf throws CodeownersBeyondReach, and a rule counting code owners fails closed.
 */
export interface CodeownersBudget {
  units: number;
}

export const CODEOWNERS_BUDGET_UNITS = 10_000_000;
const GLOB_CHECK_UNITS = 50;

export const newCodeownersBudget = (): CodeownersBudget => ({ units: CODEOWNERS_BUDGET_UNITS });

export class CodeownersBeyondReach extends Error {
  override name = 'CodeownersBeyondReach';
  constructor() {
    super(
      `finding the changed files' owners in the base branch's CODEOWNERS takes more checks than shipgate makes (${CODEOWNERS_BUDGET_UNITS / 1e6} million units)`,
    );
  }
}

/** GitHub does not load a CODEOWNERS file of 3 MB or more. */
const MAX_CODEOWNERS_BYTES = 3 * 1024 * 1024;

/** `@login`: letters, digits and hyphens, at most 39 characters, as GitHub allows logins. */
const USER_OWNER = /^@[a-z0-9][a-z0-9-]{0,38}$/;
/** `@org/team-slug`. */
const TEAM_OWNER = /^@[a-z0-9][a-z0-9-]{0,38}\/[a-z0-9][a-z0-9_.-]{0,99}$/;

interface OwnerLine {
  /** The pattern's longest literal run: a path without it matches no candidate ('' when there is none to use). */
  literal: string;
  matches(candidates: readonly string[]): boolean;
  owners: string[];
}

/** A line split at unescaped whitespace; `\x` keeps `x` (escaped) in its word; an unescaped ` #` starts a comment. */
interface Words {
  /** Each word with its escapes as written (`\ `, `\#`, `\*` ...). */
  words: string[];
  danglingEscape: boolean;
}

function splitWords(line: string): Words {
  const words: string[] = [];
  let word = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') {
      if (i + 1 >= line.length) return { words: [...words, word].filter(Boolean), danglingEscape: true };
      word += c + line[i + 1];
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      if (word) words.push(word);
      word = '';
    } else if (c === '#' && word === '') {
      break; // a comment: the whole line, or after the last word (GitHub reads inline comments)
    } else {
      word += c;
    }
  }
  if (word) words.push(word);
  return { words, danglingEscape: false };
}

/**
 * The pattern as a glob of core/linear-glob.ts: `*`, `?` and `**` keep their meaning, an escaped character and every
 * other character are literal (so nothing in the file reaches the matcher as syntax it would read beyond gitignore's).
 */
function literalGlob(pattern: string): string {
  let glob = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      glob += `\\${pattern[i + 1]}`;
      i++;
    } else if (c === '*' || c === '?' || c === '/' || /[a-z0-9_-]/i.test(c)) {
      glob += c;
    } else {
      glob += `\\${c}`;
    }
  }
  return glob;
}

/** Why a pattern is one GitHub does not read, or null. */
function patternProblem(pattern: string): string | null {
  if ([...pattern].every((c) => c === '/')) return `\`${pattern}\` names no path; GitHub skips this line.`;
  if (pattern.startsWith('\\#'))
    return 'A pattern cannot start with an escaped `#` in CODEOWNERS (GitHub reads no escape there); GitHub skips this line.';
  if (pattern.startsWith('!')) return 'Negation (`!`) does not work in CODEOWNERS; GitHub skips this line.';
  let escaped = false;
  for (const c of pattern) {
    if (!escaped && (c === '[' || c === ']')) return 'Character ranges (`[ ]`) do not work in CODEOWNERS; GitHub skips this line.';
    escaped = !escaped && c === '\\';
  }
  return null;
}

/** Why an owner is not one GitHub reads (`@user`, `@org/team`, e-mail), or null. */
function ownerProblem(owner: string): string | null {
  if (owner.startsWith('@')) {
    return USER_OWNER.test(owner) || TEAM_OWNER.test(owner) ? null : `\`${owner}\` is neither @user nor @org/team.`;
  }
  const at = owner.indexOf('@');
  const domain = owner.slice(at + 1);
  const email = at > 0 && !domain.includes('@') && domain.includes('.') && !domain.startsWith('.') && !domain.endsWith('.');
  return email ? null : `\`${owner}\` is not an owner (@user, @org/team or an e-mail address).`;
}

/**
 * gitignore's rules as GitHub applies them: a pattern without a slash (but a trailing one) matches at any depth, a
 * slash at the start or in the middle anchors it to the root; a trailing slash (or `/**`) matches only directories,
 * that is everything under one; a pattern matches a path or any directory above it, so `docs` owns `docs/a/b.md`; but a last
 * segment that is a lone `*` (`docs/*`) matches only the files directly in that directory (GitHub's example).
 */
function compileLine(pattern: string): Pick<OwnerLine, 'literal' | 'matches'> {
  const trailingSlash = pattern.endsWith('/') && !pattern.endsWith('\\/');
  let body = trailingSlash ? pattern.slice(0, -1) : pattern;
  const anchored = body.includes('/');
  // `dir/**` is everything inside dir, not dir itself: the same as `dir/`, anchored.
  const everythingInside = body.endsWith('/**') && body.length > 3;
  if (everythingInside) body = body.slice(0, -3);
  const directoryOnly = trailingSlash || everythingInside;
  const relative = body.startsWith('/') ? body.slice(1) : body;
  // core/linear-glob.ts: gitignore's `*` and `?` within a segment, `**` across, dotfiles too, in time bounded by the
  // path's length times the pattern's (the file and the paths are both a pull request author's to write).
  const glob = anchored ? literalGlob(relative) : `**/${literalGlob(relative)}`;
  // Checked now, compiled when first needed: most lines of a large file are passed over by their literal run.
  checkGlob(glob, 'path');
  let compiled: ((path: string) => boolean) | undefined;
  const isMatch = (path: string) => (compiled ??= compileGlob(glob, 'path'))(path);
  const filesDirectlyIn = !directoryOnly && anchored && (relative === '*' || relative.endsWith('/*'));
  // candidates[0] is the path itself, the rest the directories above it: each a prefix of it, so a path without the
  // pattern's longest literal run is matched by none of them (ownersOf looks for it before the matcher runs).
  const literal = relative.includes('\\') ? '' : relative.split(/[*?]/).reduce((a, b) => (b.length > a.length ? b : a), '');
  return { literal, matches: matcherOf(isMatch, filesDirectlyIn, directoryOnly) };
}

function matcherOf(isMatch: (path: string) => boolean, filesDirectlyIn: boolean, directoryOnly: boolean) {
  if (filesDirectlyIn) return (candidates: readonly string[]) => isMatch(candidates[0]);
  if (directoryOnly) return (candidates: readonly string[]) => candidates.some((c, i) => i > 0 && isMatch(c));
  return (candidates: readonly string[]) => candidates.some((c) => isMatch(c));
}

/** The last line matching one of `candidates`, spending `budget` (CodeownersBudget); throws CodeownersBeyondReach past it. */
function lastMatching(lines: readonly OwnerLine[], candidates: readonly string[], budget: CodeownersBudget): OwnerLine | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    const passed = line.literal !== '' && !candidates[0].includes(line.literal);
    budget.units -= passed ? 1 : GLOB_CHECK_UNITS * candidates.length;
    if (budget.units < 0) throw new CodeownersBeyondReach();
    if (!passed && line.matches(candidates)) return line;
  }
  return undefined;
}

/** The path, then each directory above it, nearest first: `a/b/c` -> `a/b/c`, `a/b`, `a`. */
function pathAndParents(path: string): string[] {
  const candidates = [path];
  for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
    candidates.push(path.slice(0, slash));
  }
  return candidates;
}

/**
 * Reads a CODEOWNERS file as GitHub does ("About code owners"): one `pattern owner...` per line, `#` comments (whole
 * lines, or after the owners), blank lines ignored, `\` escaping a character of a pattern (`\ `, `\#`). A line GitHub
 * cannot read (negation, a character range, an escaped `#` at the start, an owner that is not `@user`, `@org/team`
 * or an e-mail) is reported in `problems` and skipped, never thrown. Pure: the caller reads the file from the base
 * branch (docs/release-gate.md, "Code owners").
 */
export function parseCodeowners(text: string): Codeowners {
  let parsed = parsedFiles.get(text);
  if (!parsed) {
    parsed = parseCodeownersText(text);
    if (parsedFiles.size >= 1000) parsedFiles.clear();
    parsedFiles.set(text, parsed);
  }
  return parsed;
}

/**
 * Parsed files by their text (ARCHITECTURE.md, "Process-local state"): a decision judges code owners again on every
 * poll and compiling each line's pattern is the cost, so a text is parsed once per process; never stale (the text fixes
 * the result), bounded. Callers only read a `Codeowners`.
 */
const parsedFiles = new Map<string, Codeowners>();
/** Paths whose owners one parsed file remembers (a pull request lists at most 3,000 files; several heads share a file). */
const OWNERS_REMEMBERED = 20_000;

function parseCodeownersText(text: string): Codeowners {
  const problems: CodeownersProblem[] = [];
  const lines: OwnerLine[] = [];
  if (text.length * 3 >= MAX_CODEOWNERS_BYTES && new TextEncoder().encode(text).length >= MAX_CODEOWNERS_BYTES) {
    problems.push({ line: 1, message: 'The file is 3 MB or more; GitHub does not load it, so nobody owns anything.' });
    return { ownersOf: () => [], problems };
  }
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const { words, danglingEscape } = splitWords(raw);
    if (danglingEscape) {
      problems.push({ line, message: 'The line ends in an escape (`\\`) with nothing to escape; GitHub skips this line.' });
      return;
    }
    if (words.length === 0) return;
    const [pattern, ...written] = words;
    const owners = written.map((o) => o.toLowerCase());
    const problem = patternProblem(pattern) ?? owners.map(ownerProblem).find((p) => p !== null) ?? null;
    if (problem) {
      problems.push({ line, message: problem });
      return;
    }
    try {
      lines.push({ ...compileLine(pattern), owners });
    } catch {
      problems.push({ line, message: `\`${pattern}\` is not a pattern shipgate can read; this line is skipped.` });
    }
  });
  // A parsed file is kept per process (parsedFiles), so each path's owners are found once, not on every poll.
  const ownersByPath = new Map<string, string[]>();
  return {
    ownersOf(path: string, budget: CodeownersBudget): string[] {
      let owners = ownersByPath.get(path);
      if (!owners) {
        const candidates = pathAndParents(path.startsWith('/') ? path.slice(1) : path);
        const line = lastMatching(lines, candidates, budget);
        owners = line ? [...line.owners] : [];
        if (ownersByPath.size >= OWNERS_REMEMBERED) ownersByPath.clear();
        ownersByPath.set(path, owners);
      }
      return [...owners];
    },
    problems,
  };
}
