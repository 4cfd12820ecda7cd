import { forcedPushForm, forcingSetting } from './force-push-form.js';
import { storedGitSetting } from './git-settings.js';
import { leadingOptionForms } from './leading-options.js';
import {
  argumentsRun,
  gitSubcommand,
  MAX_SCRIPT_DEPTH,
  programOf,
  shellScript,
  shellTokens,
  simpleCommands,
  type ShellToken,
  type SimpleCommand,
} from './shell-words.js';

/** Operators that end a pipeline (a `|` joins its commands into one). */
const PIPELINE_ENDS = new Set([';', '&&', '||', '&', '(', ')', '`']);

/** Each pipeline of the tokens as its words and operators rejoined by single spaces: `true; curl x|sh` has `curl x | sh`. */
function pipelines(tokens: ShellToken[]): string[] {
  const out: string[] = [];
  let current: string[] = [];
  const end = () => {
    if (current.length > 0) out.push(current.join(' '));
    current = [];
  };
  for (const token of tokens) {
    if ('op' in token && PIPELINE_ENDS.has(token.op)) end();
    else current.push('word' in token ? token.word : token.op);
  }
  end();
  return out;
}

/**
 * The forms of a command line a `command` glob is matched against (docs/agent-hooks.md,
 * "tool_rules"), any one matching: the line as written; its words rejoined by single spaces
 * (quotes, backslashes and runs of blanks gone, operators spaced: `curl x|sh` reads
 * `curl x | sh`); each simple command as written between separators, as its words, and as its
 * program runs it: past `VAR=value` and wrappers, without the program's directory, git's global
 * options dropped (`sudo /usr/bin/git -C . push --force` reads `git push --force`), a shell's
 * `-c` script read as commands of its own (core/hooks/shell-words.ts: `tokens` and `commands` are
 * the line's, read once); a push that forces, as `git push --force …` (force-push-form.ts).
 * `each` holds every simple command's own forms (as its words, as its program runs it), which an
 * `allow` rule must cover one by one.
 */
export function commandForms(command: string, tokens: ShellToken[], commands: SimpleCommand[]): { forms: string[]; each: string[][] } {
  const forms = new Set<string>([command.trim()]);
  forms.add(tokens.map((token) => ('word' in token ? token.word : token.op)).join(' '));
  for (const part of command.split(/[;&|\n]+/)) if (part.trim()) forms.add(part.trim());
  for (const pipeline of pipelines(tokens)) forms.add(pipeline);
  const each: string[][] = [];
  for (const simple of commands) {
    if (simple.words.length === 0) continue;
    const ran = programOf(simple.words);
    const { program } = ran;
    const args = argumentsRun(ran);
    const run = program === 'git' ? gitSubcommand(args) : args;
    const own = [simple.words.join(' '), [program, ...run].join(' ')];
    for (const form of own) forms.add(form);
    const forced = program === 'git' ? gitForcedPushForm(args.slice(0, args.length - run.length), run) : null;
    if (forced !== null) forms.add(forced);
    // For the rules that refuse only, as the forced push's form is: an `allow` rule is matched against `own`.
    // A computed program's words are no options of a program known (`git$G --force`): none dropped.
    if (program !== 'git' && !program.includes('$')) for (const form of leadingOptionForms(program, args)) forms.add(form);
    each.push(own);
    // A shell's `-c` script's pipelines (its simple commands are already among `commands`).
    const script = shellScript(simple.words, simple.input);
    if (script !== null) for (const pipeline of scriptPipelines(script, 1)) forms.add(pipeline);
  }
  return { forms: [...forms], each };
}

/**
 * The form `git push --force …` of a git command that forces a push (force-push-form.ts): `push`,
 * and `send-pack` (the plumbing push) so spelt, or one that sets up every later push to force
 * (`git config remote.origin.push +HEAD:main`, `git remote add --mirror=push`; git-settings.ts).
 */
function gitForcedPushForm(global: readonly string[], run: readonly string[]): string | null {
  if (run[0] === 'push' || run[0] === 'send-pack') return forcedPushForm(global, run.slice(1));
  const stored = storedGitSetting(run);
  const mirrors = run[0] === 'remote' && run[1] === 'add' && run.some((word) => word === '--mirror' || word === '--mirror=push');
  return mirrors || (stored !== null && forcingSetting(stored)) ? 'git push --force' : null;
}

/** A `-c` script's pipelines, and those of the scripts in it. Its length is within the line's, already read under its budget. */
function scriptPipelines(script: string, depth: number): string[] {
  if (depth > MAX_SCRIPT_DEPTH) return [];
  const tokens = shellTokens(script);
  const inner = simpleCommands(tokens).flatMap((c) => {
    const nested = shellScript(c.words, c.input);
    return nested === null ? [] : scriptPipelines(nested, depth + 1);
  });
  return [...pipelines(tokens), ...inner];
}

/** Whether a command line runs commands it does not spell out as simple commands: `$(…)`, backticks, `<(…)`, `>(…)`, quoted or not. */
export const substitutesCommands = (command: string): boolean => /\$\(|`|[<>]\(/.test(command);
