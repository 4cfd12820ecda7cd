import { checkGlob, compileGlob, GlobSyntaxError } from '../linear-glob.js';

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
  reads: readonly string[];
  writes: readonly string[];
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
 * Whether every field of the rule's `match` holds for the call. A glob that can no longer be
 * compiled holds as `unreadable` says: for a `deny` or `ask` rule it holds (the rule stays
 * in force), for an `allow` rule it does not (it allows nothing it cannot read).
 */
export function ruleMatches(match: ToolRuleMatch, subject: RuleSubject, unreadable = true): boolean {
  if (match.command !== undefined && !holds('text', match.command, subject.commands, unreadable)) return false;
  if (match.read !== undefined && !holds('path', match.read, subject.reads, unreadable)) return false;
  if (match.write !== undefined && !holds('path', match.write, subject.writes, unreadable)) return false;
  const hosts = subject.hosts.map((h) => h.toLowerCase());
  if (match.host !== undefined && !holds('text', match.host.toLowerCase(), hosts, unreadable)) return false;
  if (match.tool !== undefined && !holds('text', match.tool, [subject.tool], unreadable)) return false;
  return true;
}

/** The first rule that matches the call, with its position, or null. */
export function firstMatchingRule(rules: readonly ToolRule[] | undefined, subject: RuleSubject): { index: number; rule: ToolRule } | null {
  const index = (rules ?? []).findIndex((rule) => ruleMatches(rule.match, subject, rule.verdict !== 'allow'));
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
