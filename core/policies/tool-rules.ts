import picomatch from 'picomatch';

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
  command?: string;
  reads: readonly string[];
  writes: readonly string[];
  hosts: readonly string[];
}

/** As the gate's globs (core/release/path-globs.ts): an unbalanced bracket is refused rather than read literally. */
const PATH_OPTIONS: picomatch.PicomatchOptions = { dot: true, nonegate: true, windows: false, strictBrackets: true };
/** In a command, `*` crosses `/` (URLs, paths): bash treats single stars as globstars. */
const TEXT_OPTIONS: picomatch.PicomatchOptions = { ...PATH_OPTIONS, bash: true };

const compiled = new Map<string, (value: string) => boolean>();

/** A glob's matcher, compiled once per glob and kind (a rule's glob fixes its matcher). */
function matcher(kind: 'path' | 'text', glob: string): (value: string) => boolean {
  const key = `${kind}\0${glob}`;
  let found = compiled.get(key);
  if (!found) {
    // A path glob without `/` matches a file of that name in any directory, as .gitignore reads it.
    found =
      kind === 'path'
        ? picomatch(glob.includes('/') ? glob.replace(/^\/+/, '') : [glob, `**/${glob}`], PATH_OPTIONS)
        : picomatch(glob, TEXT_OPTIONS);
    if (compiled.size >= 10_000) compiled.clear();
    compiled.set(key, found);
  }
  return found;
}

/** The simple commands of a command line (split at `;`, `&&`, `||`, `|` and newlines), each trimmed. */
function simpleCommands(command: string): string[] {
  return command
    .split(/[;&|\n]+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Whether the glob matches the whole command line or one of its simple commands. */
function commandMatches(glob: string, command: string | undefined): boolean {
  if (command === undefined) return false;
  const match = matcher('text', glob);
  return match(command.trim()) || simpleCommands(command).some((part) => match(part));
}

/** Whether the matcher matches one of the values (called with the value alone: a second argument changes what picomatch returns). */
const anyMatches = (match: (value: string) => boolean, values: readonly string[]) => values.some((value) => match(value));

/** Whether every field of the rule's `match` holds for the call. */
export function ruleMatches(match: ToolRuleMatch, subject: RuleSubject): boolean {
  if (match.command !== undefined && !commandMatches(match.command, subject.command)) return false;
  if (match.read !== undefined && !anyMatches(matcher('path', match.read), subject.reads)) return false;
  if (match.write !== undefined && !anyMatches(matcher('path', match.write), subject.writes)) return false;
  if (
    match.host !== undefined &&
    !anyMatches(
      matcher('text', match.host.toLowerCase()),
      subject.hosts.map((h) => h.toLowerCase()),
    )
  )
    return false;
  if (match.tool !== undefined && !matcher('text', match.tool)(subject.tool)) return false;
  return true;
}

/** The first rule that matches the call, with its position, or null. */
export function firstMatchingRule(rules: readonly ToolRule[] | undefined, subject: RuleSubject): { index: number; rule: ToolRule } | null {
  const index = (rules ?? []).findIndex((rule) => ruleMatches(rule.match, subject));
  return index < 0 ? null : { index, rule: rules![index] };
}

/** Why a glob cannot be used (picomatch refuses it), or null. */
export function toolRuleGlobProblem(kind: 'path' | 'text', glob: string): string | null {
  if (glob.startsWith('!')) return 'Negation (`!`) is not supported: put an `allow` rule before the broader one.';
  try {
    matcher(kind, glob);
    return null;
  } catch (error) {
    return `Not a glob picomatch reads: ${error instanceof Error ? error.message : String(error)}`;
  }
}
