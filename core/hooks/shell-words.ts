/**
 * A shell command line read as far as shipgate reads one (docs/agent-hooks.md, "Shell commands
 * and files"): words with their quotes (`'…'`, `"…"` with bash's escapes, `$'…'` decoded, `$"…"`),
 * backslashes and comments resolved, the simple commands between `;`, `&&`, `||`, `|`, `&`,
 * newlines, parentheses and braces, redirections, and the commands a simple command runs in turn:
 * a shell's `-c` script (`sh -c`, `su -c`, `watch`, …) and `find -exec` read as commands of their
 * own (the program behind wrappers: shell-wrappers.ts), what `<<<` and here-documents give a
 * command to read (here-documents.ts). Defence in depth for the policy's rules, NOT a shell
 * parser: what a program computes and aliases defined before the line are not followed
 * (computed-paths.ts, inline-programs.ts read what they can).
 */
import { doubleQuoted, MAX_SUBSTITUTION_DEPTH, ShellSubstitutionsTooDeep } from './double-quoted.js';
import { COMPUTED_TEXT, pipedText } from './printed-text.js';
import { hereDocumentBody } from './here-documents.js';
import { ShellLineTooLong, type ShellReadBudget, newShellReadBudget } from './shell-read-budget.js';
import { findCommands } from './find-commands.js';
import { shellScript } from './shell-wrappers.js';

export { newShellReadBudget, SHELL_READ_LIMITS, ShellLineTooLong, type ShellReadBudget } from './shell-read-budget.js';

export { argumentsRun, gitSubcommand, programOf, shellScript } from './shell-wrappers.js';

/** A word, or an operator (`<<` with its here-document's body). */
export type ShellToken = { word: string } | { op: string; body?: string };

/** A redirection: `<` reads its file, `>` writes it, `<>` opens it to read and write. */
export type Redirection = '<' | '>' | '<>';

/** One simple command: its words (redirections apart), its redirections in order, and what `<<<` or `<<` gives it to read. */
export interface SimpleCommand {
  words: string[];
  redirections: { op: Redirection; target: string }[];
  input?: string;
}

/** Characters that end a simple command. */
const SEPARATORS = new Set([';', '|', '&', '\n', '(', ')', '`']);
const REDIRECTIONS: ReadonlySet<string> = new Set(['<', '>', '<>', '<<', '<<<']);
/** Words that open or close a group: a command after them starts anew. */
const GROUP_WORDS = new Set(['{', '}', '!', 'then', 'do', 'else', 'elif']);

const C_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};
const C_NUMBERS: Record<string, { digits: RegExp; base: number }> = {
  x: { digits: /[0-9a-fA-F]{1,2}/y, base: 16 },
  u: { digits: /[0-9a-fA-F]{1,4}/y, base: 16 },
  U: { digits: /[0-9a-fA-F]{1,8}/y, base: 16 },
};
const OCTAL = /[0-7]{1,3}/y;

/**
 * One escape of a `$'…'` string at `i` (its backslash): the character it stands for and its
 * length. `git push $'--force'` and `$'\x2d-force'` run `--force`.
 */
function cEscape(command: string, i: number): { char: string; length: number } {
  const next = command[i + 1] ?? '';
  if (Object.hasOwn(C_ESCAPES, next)) return { char: C_ESCAPES[next], length: 2 };
  if (next === 'c' && i + 2 < command.length) return { char: String.fromCharCode(command.charCodeAt(i + 2) & 0x1f), length: 3 };
  const number = Object.hasOwn(C_NUMBERS, next) ? C_NUMBERS[next] : /[0-7]/.test(next) ? { digits: OCTAL, base: 8 } : null;
  const at = next === '' || /[0-7]/.test(next) ? i + 1 : i + 2;
  if (number) {
    number.digits.lastIndex = at;
    const digits = number.digits.exec(command)?.[0];
    const code = digits ? parseInt(digits, number.base) : -1;
    if (digits && code <= 0x10ffff)
      return { char: number.base === 8 ? String.fromCharCode(code & 0xff) : String.fromCodePoint(code), length: at - i + digits.length };
  }
  return { char: `\\${next}`, length: next === '' ? 1 : 2 };
}

/** A `$'…'` string from `from` (past its quote), decoded; a NUL ends its text, as bash's C strings do. */
function cQuoted(command: string, from: number): { text: string; end: number } {
  const run = /[^'\\]+/y;
  let text = '';
  let cut = false;
  let i = from;
  while (i < command.length && command[i] !== "'") {
    run.lastIndex = i;
    const plain = run.exec(command);
    const { char, length } = plain ? { char: plain[0], length: plain[0].length } : cEscape(command, i);
    cut ||= char === '\0';
    if (!cut) text += char;
    i += length;
  }
  return { text, end: i };
}

/** After `>&`: a descriptor (`2`, `-`, `2-`), which is no file; anything else is a file both outputs go to. */
const DESCRIPTOR = /[ \t]*(?:\d+-?|-)(?=[\s;|&()<>]|$)/y;

/**
 * Words and operators of a command line: quotes group (`'…'`, `"…"`, `$'…'` decoded, `$"…"`),
 * separators and redirections stand apart, a `#` starting a word comments out the rest of its line.
 */
export function shellTokens(command: string, budget: ShellReadBudget = newShellReadBudget(), depth = 0): ShellToken[] {
  if (depth > MAX_SUBSTITUTION_DEPTH) throw new ShellSubstitutionsTooDeep();
  const out: ShellToken[] = [];
  let word = '';
  let inWord = false;
  let backticks = 0;
  const push = (token: ShellToken) => {
    if (--budget.tokens < 0) throw new ShellLineTooLong();
    out.push(token);
  };
  const flush = () => {
    if (inWord) push({ word });
    word = '';
    inWord = false;
  };
  // The commands a double-quoted string substitutes, read as a group of their own where their command ends.
  const substituted: string[] = [];
  const addSubstituted = () => {
    for (const body of substituted.splice(0)) {
      push({ op: '(' });
      out.push(...shellTokens(body, budget, depth + 1));
      push({ op: ')' });
    }
  };
  // Runs of plain characters are taken whole: a character at a time, a long command cost tens of milliseconds.
  const plain = /[^\s'"\\;|&()`<>$#]+/y;
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
    if (c === '#' && !inWord) {
      const newline = command.indexOf('\n', i);
      i = (newline < 0 ? command.length : newline) - 1;
    } else if (c === "'" || c === '"' || (c === '$' && (command[i + 1] === "'" || command[i + 1] === '"'))) {
      const from = c === '$' ? i + 2 : i + 1;
      const quote = c === '$' ? command[i + 1] : c;
      const single = quote === "'" && c !== '$' ? command.indexOf("'", from) : 0;
      const read: { text: string; end: number; substitutions?: string[] } =
        quote === '"'
          ? doubleQuoted(command, from)
          : c === '$'
            ? cQuoted(command, from)
            : { text: command.slice(from, single < 0 ? command.length : single), end: single < 0 ? command.length : single };
      if (read.substitutions) substituted.push(...read.substitutions);
      word += read.text;
      inWord = true;
      i = read.end;
    } else if (c === '\\' && i + 1 < command.length) {
      // A backslash before a newline continues the line.
      if (command[i + 1] !== '\n') word += command[i + 1];
      inWord = inWord || command[i + 1] !== '\n';
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') flush();
    else if (SEPARATORS.has(c)) {
      // An opening backtick's output joins the word before it, as `$(` leaves a `$` (core/hooks/computed-paths.ts).
      if (c === '`' && backticks++ % 2 === 0) {
        word += '$';
        inWord = true;
      }
      flush();
      addSubstituted();
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
      // `<<<` gives the next word as input, `<<DELIM` (`<<-`) the lines up to DELIM (here-documents.ts).
      if (c === '<' && command[i + 1] === '<') {
        const here = command[i + 2] === '<';
        const from = i + (here ? 3 : command[i + 2] === '-' ? 3 : 2);
        const body = here ? undefined : hereDocumentBody(command, from, from === i + 3, budget, () => new ShellLineTooLong());
        push(here ? { op: '<<<' } : { op: '<<', body });
        i = from - 1;
        continue;
      }
      if (command[i + 1] === '&') {
        // `>&2`, `2>&1`, `<&3`: a descriptor, not a file; `>&file` and `>& file` write the file.
        i++;
        DESCRIPTOR.lastIndex = i + 1;
        const descriptor = DESCRIPTOR.exec(command);
        if (descriptor) i += descriptor[0].length;
        else if (c === '>') push({ op: '>' });
        continue;
      }
      // `>>` appends, `>|` overwrites even under noclobber; `<>` opens for both (`exec 3<> file`).
      const both = c === '<' && command[i + 1] === '>';
      if (both || command[i + 1] === '>' || (c === '>' && command[i + 1] === '|')) i++;
      push({ op: both ? '<>' : c });
    } else {
      word += c;
      inWord = true;
    }
  }
  flush();
  addSubstituted();
  return out;
}

/** How deep `sh -c "bash -c '…'"` (and `find -exec`) is followed. */
export const MAX_SCRIPT_DEPTH = 3;

/**
 * A line nesting more than MAX_SCRIPT_DEPTH `-c` scripts (or `find -exec` commands): refused as a
 * line past what shipgate reads, rather than run with its innermost script unread.
 */
export class ShellScriptsTooDeep extends ShellLineTooLong {
  override name = 'ShellScriptsTooDeep';
  override message = `nests more than ${MAX_SCRIPT_DEPTH} shell scripts (\`sh -c\`, \`su -c\`, \`find -exec\`, …), which shipgate does not read`;
}

/** Adds a simple command and, after it, the commands it runs: a shell's `-c` script's, `find -exec`'s. */
function addCommand(simple: SimpleCommand, out: SimpleCommand[], budget: ShellReadBudget, depth: number): void {
  if (simple.words.length === 0 && simple.redirections.length === 0) return;
  if (--budget.commands < 0) throw new ShellLineTooLong();
  out.push(simple);
  const script = shellScript(simple.words, simple.input);
  const found = findCommands(simple.words);
  if ((script !== null || found.length > 0) && depth >= MAX_SCRIPT_DEPTH) throw new ShellScriptsTooDeep();
  if (script !== null) out.push(...simpleCommands(script, budget, depth + 1));
  for (const words of found) addCommand({ words, redirections: [] }, out, budget, depth + 1);
}

/**
 * The simple commands of a command line (or of its tokens, read once by the caller with the same
 * budget), in order, each with its redirections; a shell's `-c` script and `find -exec` add their
 * own after it. Throws ShellLineTooLong past the budget, ShellScriptsTooDeep past MAX_SCRIPT_DEPTH.
 */
export function simpleCommands(command: string | ShellToken[], budget: ShellReadBudget = newShellReadBudget(), depth = 0): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirections: [] };
  const end = () => {
    addCommand(current, out, budget, depth);
    current = { words: [], redirections: [] };
  };
  const list = typeof command === 'string' ? shellTokens(command, budget) : command;
  for (let i = 0; i < list.length; i++) {
    const token = list[i];
    if ('word' in token) {
      if (current.words.length === 0 && GROUP_WORDS.has(token.word)) continue;
      current.words.push(token.word);
    } else if (!REDIRECTIONS.has(token.op)) {
      // What a command prints is the input of the command it is piped to (printed-text.ts).
      const printed = token.op === '|' ? pipedText(current.words, current.input) : null;
      end();
      if (printed !== null) current.input = printed;
    } else {
      const target = list[i + 1];
      // `bash <(curl …)`: a process substitution's output is a file the command reads, what a shell runs.
      if (token.op === '<' && target && 'op' in target && target.op === '(') current.input = COMPUTED_TEXT;
      if (target && 'word' in target) {
        if (token.op === '<<<' || token.op === '<<') current.input = token.op === '<<<' ? target.word : (token.body ?? '');
        else current.redirections.push({ op: token.op as Redirection, target: target.word });
        i++;
      }
    }
  }
  end();
  return out;
}
