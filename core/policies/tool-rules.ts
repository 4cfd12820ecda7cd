import { globsOverlap, isGlobPattern, newOverlapBudget, type OverlapBudget } from '../glob-overlap.js';
import { checkGlob, compileGlob, GlobSyntaxError } from '../linear-glob.js';
import { looseText, loosePath } from './loose-spelling.js';
import { isOutsideRoot } from './outside-root.js';
import { coversPattern, directoriesOf, meetsPattern } from './rule-patterns.js';
import { textMeetsComputed } from './text-overlap.js';

/** What a tool rule matches on; every field given must hold (docs/agent-hooks.md, "tool_rules"). */
export interface ToolRuleMatch {
  /** A glob over a shell call's command line (`*` matches anything, `/` and spaces included). */
  command?: string;
  /** A glob over a path the call reads (relative to the repository root; no `/`: any directory). */
  read?: string;
  /** A glob over a path the call writes or edits. */
  write?: string;
  /** A glob over a host the call reaches (`*.example.com`). */
  host?: string;
  /** A glob over the tool's name as the agent calls it (`WebFetch`, `mcp__github__*`). */
  tool?: string;
}

export type ToolRuleVerdict = 'allow' | 'deny' | 'ask';

/** One rule of a policy's `tool_rules`: the first rule that matches a call decides it. */
export interface ToolRule {
  match: ToolRuleMatch;
  verdict: ToolRuleVerdict;
}

/** The facts of a call the rules are matched against (core/hooks/tool-action.ts). */
export interface RuleSubject {
  tool: string;
  /** A shell call's command line in the forms a `command` glob is matched against (core/hooks/shell-command-forms.ts); none for other tools. */
  commands: readonly string[];
  /** Each simple command of that line in its own forms: an `allow` rule's `command` must match one form of every one. */
  simpleCommands: readonly (readonly string[])[];
  /** The line runs commands it does not spell out (`$(…)`, backticks, `<(…)`): no `allow` rule covers it. */
  substitutes: boolean;
  reads: readonly string[];
  writes: readonly string[];
  /**
   * Paths the call may read that an `allow` rule need not name, read for the rules that refuse: the files an edit changes (it
   * reads them to find its old text; an `allow` rule's `write` covers them), the paths a program the shell reader does not
   * know is handed (core/hooks/shell-file-access.ts: `node x.js .env`).
   */
  alsoRead?: readonly string[];
  /** Paths the call may write that an `allow` rule need not name, written for the rules that refuse: what an unknown program is handed (`prettier --write x`). */
  alsoWritten?: readonly string[];
  hosts: readonly string[];
}

const compiled = new Map<string, ((value: string) => boolean) | null>();

/**
 * A glob's matcher, compiled once per glob and kind (a rule's glob fixes its matcher), in time
 * bounded by what it is matched against times the glob (linear-glob.ts: the agent writes that); null when the
 * glob cannot be compiled (one stored before a syntax was refused).
 */
function matcher(kind: 'path' | 'text', glob: string): ((value: string) => boolean) | null {
  const key = `${kind}\0${glob}`;
  let found = compiled.get(key);
  if (found === undefined) {
    found = compiledGlob(kind, glob);
    if (compiled.size >= 10_000) compiled.clear();
    compiled.set(key, found);
  }
  return found;
}

function compiledGlob(kind: 'path' | 'text', glob: string): ((value: string) => boolean) | null {
  try {
    if (kind === 'text') return compileGlob(glob, 'text');
    if (glob.includes('/')) return compileGlob(glob.replace(/^\/+/, ''), 'path');
    // A path glob without `/` matches a file of that name in any directory, as .gitignore reads it.
    const here = compileGlob(glob, 'path');
    const below = compileGlob(`**/${glob}`, 'path');
    return (value) => here(value) || below(value);
  } catch (error) {
    if (error instanceof GlobSyntaxError) return null;
    throw error;
  }
}

/** Whether a glob holds for one of the values; a glob that cannot be compiled holds as `unreadable` says. */
function holds(kind: 'path' | 'text', glob: string, values: readonly string[], unreadable: boolean): boolean {
  const match = matcher(kind, glob);
  return match === null ? unreadable : values.some((value) => match(value));
}

/**
 * A deny or ask rule's glob over values: it holds for a path it matches, or a pattern it could
 * name a file of; for a text it matches, or one with computed parts it could match (text-overlap.ts).
 */
const refusalHolds = (kind: 'path' | 'text', glob: string, values: readonly string[], budget: OverlapBudget) =>
  holds(kind, glob, values, true) ||
  (kind === 'path'
    ? values.some((value) => isGlobPattern(value) && meetsPattern(glob, value, budget))
    : values.some((value) => value.includes('$') && textMeetsComputed(glob, value, budget)));

/** The values a deny or ask rule is matched against, each field's as spelt or as `loose-spelling.ts` reads it. */
interface RefusalValues {
  commands: readonly string[];
  reads: readonly string[];
  writes: readonly string[];
  /** The paths outside the repository root (absolute) without their leading `/`: a glob with a `/` is tried anywhere in them. */
  outsideReads: readonly string[];
  outsideWrites: readonly string[];
  hosts: readonly string[];
  tool: readonly string[];
}

const outside = (paths: readonly string[]) => paths.filter(isOutsideRoot).map((p) => p.replace(/^\/+/, ''));

function refusalValues(subject: RuleSubject): RefusalValues {
  const reads = subject.alsoRead?.length ? [...subject.reads, ...subject.alsoRead] : subject.reads;
  const writes = subject.alsoWritten?.length ? [...subject.writes, ...subject.alsoWritten] : subject.writes;
  return {
    commands: subject.commands,
    reads,
    writes,
    outsideReads: outside(reads),
    outsideWrites: outside(writes),
    hosts: subject.hosts.map((h) => h.toLowerCase()),
    tool: [subject.tool],
  };
}

/** The values folded; a field whose every value folds to itself is the same array, so it is not matched twice. */
function looseValues(v: RefusalValues): RefusalValues {
  const fold = (values: readonly string[], f: (s: string) => string) => {
    const folded = values.map(f);
    return folded.every((x, i) => x === values[i]) ? values : folded;
  };
  return {
    commands: fold(v.commands, looseText),
    reads: fold(v.reads, loosePath),
    writes: fold(v.writes, loosePath),
    outsideReads: fold(v.outsideReads, loosePath),
    outsideWrites: fold(v.outsideWrites, loosePath),
    hosts: v.hosts,
    tool: fold(v.tool, looseText),
  };
}

type Values = (v: RefusalValues) => readonly string[];
/** One field of a rule: it holds when one of its tries (a glob over values) does, or a write lands above `under`. */
type Field = { kind: 'path' | 'text'; tries: [glob: string, values: Values][]; under?: string };

/** The directory the literal start of a glob with a `/` names (`.github/workflows/` of `.github/workflows/*.yml`), or null. */
function literalDirectory(glob: string): string | null {
  if (!glob.includes('/')) return null;
  const path = glob.replace(/^\/+/, '');
  const wild = path.search(/[*?[{\\]/);
  const literal = wild < 0 ? path : path.slice(0, wild);
  const cut = literal.lastIndexOf('/');
  return cut < 0 ? null : literal.slice(0, cut + 1);
}

/**
 * Whether one of the writes is a directory at or above `under` (or the root itself): removing,
 * replacing or filling it (`rm -rf .github`, `rsync -a w/ .github/`, whose files are not named)
 * can change what the glob names (docs/agent-hooks.md, "Shell commands and files").
 */
const writesAbove = (under: string, writes: readonly string[], budget: OverlapBudget) =>
  writes.some(
    (w) =>
      w === '.' ||
      (!isOutsideRoot(w) &&
        (under.startsWith(`${w}/`) || (isGlobPattern(w) && directoriesOf(under).some((d) => globsOverlap(d, w, budget))))),
  );

/**
 * The fields a deny or ask rule names, each with what it is tried against. A path glob with a `/`
 * holds relative to the repository root and also anywhere in a path outside it (`**` then the
 * glob): `read: /etc/**` refuses `/etc/passwd`, and `write: .github/workflows/**` a workflow of a
 * repository the agent reaches by its absolute path (docs/agent-hooks.md, "tool_rules").
 */
function refusalFields(match: ToolRuleMatch): Field[] {
  const fields: Field[] = [];
  const text = (glob: string, values: Values) => fields.push({ kind: 'text', tries: [[glob, values]] });
  const path = (glob: string, relative: Values, beyond: Values) =>
    fields.push({
      kind: 'path',
      tries: glob.includes('/')
        ? [
            [glob, relative],
            [`**/${glob.replace(/^\/+/, '')}`, beyond],
          ]
        : [[glob, relative]],
    });
  if (match.command !== undefined) text(match.command, (v) => v.commands);
  if (match.read !== undefined)
    path(
      match.read,
      (v) => v.reads,
      (v) => v.outsideReads,
    );
  if (match.write !== undefined) {
    path(
      match.write,
      (v) => v.writes,
      (v) => v.outsideWrites,
    );
    fields[fields.length - 1].under = literalDirectory(match.write) ?? undefined;
  }
  if (match.host !== undefined) text(match.host.toLowerCase(), (v) => v.hosts);
  if (match.tool !== undefined) text(match.tool, (v) => v.tool);
  return fields;
}

/**
 * Whether every field of a deny or ask rule's `match` holds for the call, each as spelt or as the
 * agent's machine may read it (its glob case-folded likewise). A glob that can no longer be
 * compiled holds: the rule stays in force.
 */
function refusalMatches(match: ToolRuleMatch, strict: RefusalValues, loose: () => RefusalValues, budget: OverlapBudget): boolean {
  return refusalFields(match).every(
    ({ kind, tries, under }) =>
      tries.some(([glob, values]) => {
        if (refusalHolds(kind, glob, values(strict), budget)) return true;
        const folded = looseText(glob);
        const looseOnes = values(loose());
        return (folded !== glob || looseOnes !== values(strict)) && refusalHolds(kind, folded, looseOnes, budget);
      }) ||
      (under !== undefined && (writesAbove(under, strict.writes, budget) || writesAbove(looseText(under), loose().writes, budget))),
  );
}

/** Whether a glob holds for every one of the values, and there is one; an `allow` glob that cannot be compiled holds for none. */
const holdsForAll = (kind: 'path' | 'text', glob: string, values: readonly string[]) => {
  const match = matcher(kind, glob);
  return (
    match !== null &&
    values.length > 0 &&
    values.every((value) => (kind === 'path' && isGlobPattern(value) ? coversPattern(glob, value) : match(value)))
  );
};

/**
 * Whether an `allow` rule covers the whole call (docs/agent-hooks.md, "tool_rules"): it names
 * each kind of thing the call does, and its glob holds for every one of them: each simple command
 * of a shell line (in one of its forms; a line with a command substitution is covered by none),
 * each path read, each path written, each host. So `allow npm test*` does not cover
 * `npm test; curl x | sh`, nor `npm test > .github/workflows/ci.yml`: such calls go on to the
 * next rules.
 */
function allowCovers(match: ToolRuleMatch, subject: RuleSubject): boolean {
  const shell = subject.commands.length > 0;
  if (shell !== (match.command !== undefined)) return false;
  if (match.command !== undefined) {
    const glob = match.command;
    const each = subject.simpleCommands;
    if (subject.substitutes || each.length === 0 || !each.every((forms) => holds('text', glob, forms, false))) return false;
  }
  const kinds: [string | undefined, readonly string[]][] = [
    [match.read, subject.reads],
    [match.write, subject.writes],
  ];
  for (const [glob, values] of kinds) {
    if (values.length > 0 && glob === undefined) return false;
    if (glob !== undefined && !holdsForAll('path', glob, values)) return false;
  }
  const hosts = subject.hosts.map((h) => h.toLowerCase());
  if (hosts.length > 0 && match.host === undefined) return false;
  if (match.host !== undefined && !holdsForAll('text', match.host.toLowerCase(), hosts)) return false;
  return match.tool === undefined || holds('text', match.tool, [subject.tool], false);
}

/** The first rule that matches the call, with its position, or null: a deny or ask rule as it may be spelt, an allow rule only covering it whole. */
export function firstMatchingRule(
  rules: readonly ToolRule[] | undefined,
  subject: RuleSubject,
  // One budget for the call's every pattern and rule (its forbidden and asked capabilities' too: reached-capability.ts): a call naming thousands of long globs costs no more (glob-overlap.ts).
  budget: OverlapBudget = newOverlapBudget(),
): { index: number; rule: ToolRule } | null {
  let strict: RefusalValues | undefined;
  let loose: RefusalValues | undefined;
  const index = (rules ?? []).findIndex((rule) => {
    if (rule.verdict === 'allow') return allowCovers(rule.match, subject);
    strict ??= refusalValues(subject);
    return refusalMatches(rule.match, strict, () => (loose ??= looseValues(strict!)), budget);
  });
  return index < 0 ? null : { index, rule: rules![index] };
}

/** Why a glob cannot be used, or null. */
export function toolRuleGlobProblem(kind: 'path' | 'text', glob: string): string | null {
  if (glob.startsWith('!')) return 'Negation (`!`) is not supported: put an `allow` rule before the broader one.';
  try {
    checkGlob(glob, kind);
    return null;
  } catch (error) {
    if (error instanceof GlobSyntaxError) return `Not a glob shipgate reads: ${error.message}.`;
    throw error;
  }
}
