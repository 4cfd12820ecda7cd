import { ShellLineTooLong } from './shell-read-budget.js';

/** How deep commands substituted in double-quoted strings (`"$(echo "$(cat .env)")"`) are read. */
export const MAX_SUBSTITUTION_DEPTH = 8;

/** A line nesting them deeper: each level is read again, so it is refused rather than read in part. */
export class ShellSubstitutionsTooDeep extends ShellLineTooLong {
  override name = 'ShellSubstitutionsTooDeep';
  override message = `nests more than ${MAX_SUBSTITUTION_DEPTH} command substitutions in double-quoted strings, which shipgate does not read`;
}

/**
 * Where the command substitution whose body starts at `from` (past its `$(`) ends: the index of
 * its `)`, or the text's length without one. Quotes, backticks and nested parentheses are read as
 * the shell reads them (a `)` in a string closes nothing), in one pass.
 */
export function substitutionEnd(text: string, from: number): number {
  // What each open context is: a substitution (with its parentheses' depth), a double-quoted string, backticks.
  const open: { in: 'sub' | 'dq' | 'bq'; depth: number }[] = [{ in: 'sub', depth: 1 }];
  // Strings open within it: past MAX_SUBSTITUTION_DEPTH, reading each level would scan the rest of the line again.
  let strings = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    const top = open[open.length - 1];
    if (c === '\\') i++;
    else if (top.in === 'bq') {
      if (c === '`') open.pop();
    } else if (c === '`') open.push({ in: 'bq', depth: 0 });
    else if (top.in === 'dq') {
      if (c === '"') {
        open.pop();
        strings--;
      }
      // Its `(` comes next and opens it.
      else if (c === '$' && text[i + 1] === '(') open.push({ in: 'sub', depth: 0 });
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      i = close < 0 ? text.length : close;
    } else if (c === '"') {
      if (++strings > MAX_SUBSTITUTION_DEPTH) throw new ShellSubstitutionsTooDeep();
      open.push({ in: 'dq', depth: 0 });
    } else if (c === '(') top.depth++;
    else if (c === ')' && --top.depth === 0) {
      open.pop();
      if (open.length === 0) return i;
    }
  }
  return text.length;
}

/**
 * A double-quoted string from `from` (past its quote), as bash reads it: a backslash escapes only
 * `"`, `\`, `$`, a backtick and a newline (gone), and stays before anything else. Taking `\"` for
 * the closing quote let `echo "\"" ; cat .env` hide the `cat`. `end` is the closing quote's index.
 * The commands it substitutes (`"$(cat .env)"`, `` "`cat .env`" ``) are its `substitutions`,
 * their bodies: the shell runs them (a security probe read `.env` with `x="$(cat .env)"`); their
 * text stays in the word, where a `$` is text the line computes.
 */
export function doubleQuoted(command: string, from: number): { text: string; end: number; substitutions: string[] } {
  // Taken whole: plain text, and a `$` that substitutes no command.
  const run = /(?:[^"\\$`]|\$(?!\())+/y;
  const substitutions: string[] = [];
  let text = '';
  let i = from;
  while (i < command.length && command[i] !== '"') {
    run.lastIndex = i;
    const plain = run.exec(command);
    if (plain) {
      text += plain[0];
      i += plain[0].length;
      continue;
    }
    const c = command[i];
    const next = command[i + 1] ?? '';
    if (c === '$' && next === '(') {
      const end = substitutionEnd(command, i + 2);
      // `$((…))` is arithmetic, which runs no command.
      if (command[i + 2] !== '(') substitutions.push(command.slice(i + 2, end));
      text += command.slice(i, end + 1);
      i = end + 1;
    } else if (c === '`') {
      let close = i + 1;
      while (close < command.length && command[close] !== '`') close += command[close] === '\\' ? 2 : 1;
      substitutions.push(command.slice(i + 1, close));
      text += command.slice(i, close + 1);
      i = close + 1;
    } else if (next !== '' && '"\\$`\n'.includes(next)) {
      if (next !== '\n') text += next;
      i += 2;
    } else {
      text += '\\';
      i++;
    }
  }
  return { text, end: Math.min(i, command.length), substitutions };
}
