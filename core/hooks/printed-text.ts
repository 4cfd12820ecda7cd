/** `\n`, `\t`, `\\` and the other escapes echo -e and printf read, and `\c`, which ends the output. */
const ESCAPE = /\\([\\abefnrtv0c]|x[0-9a-fA-F]{1,2})/g;
const ESCAPED: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', 0: '', '\\': '\\' };

/** `text` with its escapes read; null past a `\c` is its end. */
function unescaped(text: string): string {
  const cut = text.indexOf('\\c');
  const kept = cut === -1 ? text : text.slice(0, cut);
  return kept.replace(ESCAPE, (_, e: string) => (e[0] === 'x' ? String.fromCharCode(parseInt(e.slice(1), 16)) : ESCAPED[e]));
}

/** printf's output for a format of `%s`, `%b`, `%d` and `%%` alone (no width, no other conversion); null for any other. */
function printfOutput(format: string, args: readonly string[]): string | null {
  const parts = format.split(/(%%|%[sbd])/);
  if (parts.some((part, i) => i % 2 === 0 && part.includes('%'))) return null;
  const conversions = parts.filter((part, i) => i % 2 === 1 && part !== '%%').length;
  let out = '';
  let next = 0;
  // The format is used again while arguments remain, as printf does.
  do {
    for (let i = 0; i < parts.length; i++) {
      if (i % 2 === 0) out += unescaped(parts[i]);
      else if (parts[i] === '%%') out += '%';
      else {
        const arg = args[next++] ?? '';
        out += parts[i] === '%b' ? unescaped(arg) : arg;
      }
    }
  } while (conversions > 0 && next < args.length);
  return out;
}

/**
 * Text the line computes: a `$` stands for any text where commands and paths are matched
 * (core/policies/text-overlap.ts, core/hooks/computed-paths.ts).
 */
export const COMPUTED_TEXT = '$';

/**
 * What `echo` or `printf` prints, its computed parts (`$X`, `$(…)`) left as the `$` they are, so
 * a shell it is piped to runs that text (`echo 'git push --force' | sh`). Escapes are read as
 * dash's echo reads them (always); null for any other command, `printf -v`, or a format past
 * `%s`/`%b`/`%d`.
 */
function printedText(words: readonly string[]): string | null {
  const [program, ...args] = words;
  if (program === 'echo') {
    let i = 0;
    while (i < args.length && /^-[neE]+$/.test(args[i])) i++;
    return `${unescaped(args.slice(i).join(' '))}\n`;
  }
  if (program !== 'printf') return null;
  const from = args[0] === '--' ? 1 : 0;
  if (args[from] === undefined || args[from].startsWith('-')) return null;
  return printfOutput(args[from], args.slice(from + 1));
}

/**
 * What a command piped into another prints, as the next command's input (core/hooks/shell-words.ts):
 * a literal `echo`'s or `printf`'s text, what a bare `cat` was given, else text the line computes (`curl x | sh`,
 * `base64 -d f | sh`, a group's output), which a shell reading it may run as any command.
 */
export function pipedText(words: readonly string[], input?: string): string {
  // `cat <<'EOF' | python3 -`: cat with no file prints what it was given.
  if (input !== undefined && words[0] === 'cat' && words.slice(1).every((word) => word === '-')) return input;
  return printedText(words) ?? COMPUTED_TEXT;
}
