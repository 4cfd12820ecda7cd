/**
 * A shell command line read as far as shipgate reads one (docs/agent-hooks.md, "Shell commands
 * and files"): words with their quotes and backslashes resolved, the simple commands between
 * `;`, `&&`, `||`, `|`, `&`, newlines, parentheses and braces, redirections, the program a
 * simple command runs behind its wrappers (`VAR=value`, `sudo`, `env`, `command`, `exec`,
 * `nohup`, `time`, `nice`, a path before the name), and the script of `sh -c`, `bash -c`, … read
 * as commands of its own. Defence in depth for the policy's rules, NOT a shell parser:
 * variables, globs, command substitution, `eval`, interpreters and aliases are not followed.
 */
export type ShellToken = { word: string } | { op: string };

/** One simple command: its words (redirections apart) and its redirections, in order. */
export interface SimpleCommand {
  words: string[];
  redirections: { op: '<' | '>'; target: string }[];
}

/**
 * How much of a command line is read (docs/agent-hooks.md, "Shell commands and files"): words and
 * operators, and simple commands, counted over the line and the `-c` scripts in it. Reading and
 * matching cost what a line holds: `a;` repeated to 256 KiB (131,040 simple commands) held the
 * event loop 300 ms a call, and ten such calls at once three seconds. A line holding more is
 * refused unread past the limit (ShellLineTooLong), as one over 256 KiB is.
 */
export const SHELL_READ_LIMITS = { tokens: 8192, commands: 1024 } as const;

/** What is left of SHELL_READ_LIMITS while one line is read. */
export type ShellReadBudget = { tokens: number; commands: number };

export const newShellReadBudget = (): ShellReadBudget => ({ ...SHELL_READ_LIMITS });

/** A command line holds more than SHELL_READ_LIMITS. */
export class ShellLineTooLong extends Error {
  override name = 'ShellLineTooLong';
  constructor() {
    super(
      `holds more than ${SHELL_READ_LIMITS.commands} simple commands or ${SHELL_READ_LIMITS.tokens} words and operators, which shipgate does not read`,
    );
  }
}

/** Characters that end a simple command. */
const SEPARATORS = new Set([';', '|', '&', '\n', '(', ')', '`']);
/** Words that open or close a group: a command after them starts anew. */
const GROUP_WORDS = new Set(['{', '}', '!', 'then', 'do', 'else', 'elif']);

/** Words and operators of a command line: quotes group, separators and redirections stand apart. */
export function shellTokens(command: string, budget: ShellReadBudget = newShellReadBudget()): ShellToken[] {
  const out: ShellToken[] = [];
  let word = '';
  let inWord = false;
  const push = (token: ShellToken) => {
    if (--budget.tokens < 0) throw new ShellLineTooLong();
    out.push(token);
  };
  const flush = () => {
    if (inWord) push({ word });
    word = '';
    inWord = false;
  };
  // Runs of plain characters are taken whole: a character at a time, a long command cost tens of milliseconds.
  const plain = /[^\s'"\\;|&()`<>]+/y;
  for (let i = 0; i < command.length; i++) {
    plain.lastIndex = i;
    const run = plain.exec(command);
    if (run) {
      word += run[0];
      inWord = true;
      i += run[0].length - 1;
      continue;
    }
    const c = command[i];
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      const stop = end < 0 ? command.length : end;
      word += command.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (c === '\\' && i + 1 < command.length) {
      // A backslash before a newline continues the line.
      if (command[i + 1] !== '\n') word += command[i + 1];
      inWord = inWord || command[i + 1] !== '\n';
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') flush();
    else if (SEPARATORS.has(c)) {
      flush();
      // `&&` and `||` are one operator; a newline reads as `;`.
      const doubled = (c === '&' || c === '|') && command[i + 1] === c;
      push({ op: doubled ? c + command[++i] : c === '\n' ? ';' : c });
    } else if (c === '>' || c === '<') {
      // `2>` and `&>` redirect too: a bare digit before it is the descriptor, not a word.
      if (/^\d$/.test(word)) {
        word = '';
        inWord = false;
      }
      flush();
      if (command[i + 1] === '&') {
        // `>&2`, `2>&1`: a descriptor, not a file.
        i++;
        while (i + 1 < command.length && /[\d-]/.test(command[i + 1])) i++;
        continue;
      }
      // `>>` appends, `>|` overwrites even under noclobber.
      if (command[i + 1] === '>' || (c === '>' && command[i + 1] === '|')) i++;
      push({ op: c === '<' ? '<' : '>' });
    } else {
      word += c;
      inWord = true;
    }
  }
  flush();
  return out;
}

/** Shells whose `-c` argument is a script of commands. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish']);
/** How deep `sh -c "bash -c '…'"` is followed. */
export const MAX_SCRIPT_DEPTH = 3;

/** The script a shell runs with `-c`, if the words run one (`bash -lc 'x'`, `sh -c 'x'`). */
export function shellScript(words: readonly string[]): string | null {
  const { program, args } = programOf(words);
  if (!SHELLS.has(program)) return null;
  const flag = args.findIndex((a) => /^-[a-z]+$/.test(a) && a.includes('c'));
  return flag >= 0 && flag + 1 < args.length ? args[flag + 1] : null;
}

/**
 * The simple commands of a command line (or of its tokens, read once by the caller with the same
 * budget), in order, each with its redirections; a shell's `-c` script adds its own after it.
 * Throws ShellLineTooLong past the budget.
 */
export function simpleCommands(command: string | ShellToken[], budget: ShellReadBudget = newShellReadBudget(), depth = 0): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirections: [] };
  const end = () => {
    if (current.words.length > 0 || current.redirections.length > 0) {
      if (--budget.commands < 0) throw new ShellLineTooLong();
      out.push(current);
    }
    const script = depth < MAX_SCRIPT_DEPTH ? shellScript(current.words) : null;
    if (script !== null) out.push(...simpleCommands(script, budget, depth + 1));
    current = { words: [], redirections: [] };
  };
  const list = typeof command === 'string' ? shellTokens(command, budget) : command;
  for (let i = 0; i < list.length; i++) {
    const token = list[i];
    if ('word' in token) {
      if (current.words.length === 0 && GROUP_WORDS.has(token.word)) continue;
      current.words.push(token.word);
    } else if (token.op !== '<' && token.op !== '>') end();
    else {
      const target = list[i + 1];
      if (target && 'word' in target) {
        current.redirections.push({ op: token.op as '<' | '>', target: target.word });
        i++;
      }
    }
  }
  end();
  return out;
}

/** Wrappers that run the rest of their words as a command, with their options that take the next word as a value. */
const WRAPPERS: Record<string, ReadonlySet<string>> = {
  sudo: new Set(['-u', '-g', '-h', '-p', '-r', '-t', '-U', '-C', '-D', '-R', '-T']),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '-C']),
  nice: new Set(['-n']),
  timeout: new Set(['-s', '-k']),
  stdbuf: new Set(['-i', '-o', '-e']),
  command: new Set(),
  exec: new Set(['-a']),
  nohup: new Set(),
  time: new Set(['-f', '-o']),
  builtin: new Set(),
};

/**
 * The program a simple command runs and its arguments: past `VAR=value` and the wrappers that
 * run a command (with their options), the program's name without its directory, lower-cased.
 */
export function programOf(words: readonly string[]): { program: string; args: string[] } {
  let i = 0;
  for (;;) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) i++;
    const name = words[i] ?? '';
    const base = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
    const valued = Object.hasOwn(WRAPPERS, base) ? WRAPPERS[base] : null;
    if (!valued) break;
    i++;
    while (i < words.length && words[i].startsWith('-') && words[i] !== '--') i += valued.has(words[i]) ? 2 : 1;
    if (words[i] === '--') i++;
    // `timeout 5 git push`: its duration is no program.
    if (base === 'timeout' && /^\d/.test(words[i] ?? '')) i++;
  }
  const name = words[i] ?? '';
  // Lower-cased: a case-insensitive filesystem (macOS's, Windows') runs `GIT` as git (core/policies/loose-spelling.ts).
  return { program: name.slice(name.lastIndexOf('/') + 1).toLowerCase(), args: words.slice(i + 1) };
}

/** git's global options before its subcommand (`-C dir`, `-c key=value`, `--no-pager`, …), skipped: the subcommand and its arguments. */
export function gitSubcommand(args: readonly string[]): string[] {
  let i = 0;
  while (i < args.length && args[i].startsWith('-')) i += args[i] === '-C' || args[i] === '-c' ? 2 : 1;
  return args.slice(i);
}
