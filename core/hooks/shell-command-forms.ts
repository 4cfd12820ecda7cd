import { gitSubcommand, programOf, type ShellToken, type SimpleCommand } from './shell-words.js';

/**
 * The forms of a command line a `command` glob is matched against (docs/agent-hooks.md,
 * "tool_rules"), any one matching: the line as written; its words rejoined by single spaces
 * (quotes, backslashes and runs of blanks gone, operators spaced: `curl x|sh` reads
 * `curl x | sh`); each simple command as written between separators, as its words, and as its
 * program runs it: past `VAR=value` and wrappers, without the program's directory, git's global
 * options dropped (`sudo /usr/bin/git -C . push --force` reads `git push --force`), a shell's
 * `-c` script read as commands of its own (core/hooks/shell-words.ts: `tokens` and `commands` are
 * the line's, read once).
 */
export function commandForms(command: string, tokens: ShellToken[], commands: SimpleCommand[]): string[] {
  const forms = new Set<string>([command.trim()]);
  forms.add(tokens.map((token) => ('word' in token ? token.word : token.op)).join(' '));
  for (const part of command.split(/[;&|\n]+/)) if (part.trim()) forms.add(part.trim());
  for (const simple of commands) {
    if (simple.words.length === 0) continue;
    forms.add(simple.words.join(' '));
    const { program, args } = programOf(simple.words);
    forms.add([program, ...(program === 'git' ? gitSubcommand(args) : args)].join(' '));
  }
  return [...forms];
}
