import { hiddenToo } from './hidden-file-globs.js';
import { programOf } from './shell-wrappers.js';
import { trimSlashes } from './trim-slashes.js';
import type { ProgramAccess } from './program-access.js';

/** `find`'s own options that run a command: the words after them up to `;` or `+`. */
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);
/** Tests that widen what a `-name` narrows (an alternative, a negation) or name files otherwise. */
const WIDENS = new Set([
  '-o',
  '-or',
  '!',
  '-not',
  ',',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-lname',
  '-ilname',
]);

/** Where a find's expression begins (-1: none), and the starting directories before it. */
function startsOf(args: readonly string[]): { expression: number; starts: readonly string[] } {
  const expression = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
  return { expression, starts: expression < 0 ? args : args.slice(0, expression) };
}

/**
 * The files `{}` stands for in a find's commands, as a glob: under its one starting directory,
 * those its one `-name` (or `-iname`) names at any depth, hidden ones included (find's `*`
 * matches a leading `.`); null when the find says no more than "any file" (no such test, several
 * starting directories, `-o`, `!`, `-path`, …), so `{}` stays a computed path (computed-paths.ts):
 * `find . -name '*.ts' -exec grep -l x {} +` reads the `*.ts` files at any depth (`.ts` and `.x.ts`
 * too, hiddenToo), `find . -exec cat {} \;` any file.
 */
function placeholderGlob(args: readonly string[]): string | null {
  const { expression, starts } = startsOf(args);
  const exec = args.findIndex((a) => FIND_EXEC.has(a));
  const tests = expression < 0 ? [] : args.slice(expression, exec < 0 ? args.length : exec);
  if (starts.length > 1 || tests.some((a) => WIDENS.has(a))) return null;
  const names = tests.flatMap((a, i) => (a === '-name' || a === '-iname' ? [tests[i + 1] ?? ''] : []));
  if (names.length !== 1 || names[0] === '' || /[/{},]/.test(names[0])) return null;
  const dir = trimSlashes(starts[0] ?? '.') || '/';
  return `${dir === '.' ? '' : dir === '/' ? '/' : `${dir}/`}**/${hiddenToo(names[0])}`;
}

/** The commands a `find` runs (`find . -exec cat {} \;`), as their words; a `{}` word as the files it stands for, when the find narrows them. */
export function findCommands(words: readonly string[]): string[][] {
  const { program, args } = programOf(words);
  if (program !== 'find') return [];
  const glob = placeholderGlob(args);
  const out: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!FIND_EXEC.has(args[i])) continue;
    const start = i + 1;
    while (i + 1 < args.length && args[i + 1] !== ';' && args[i + 1] !== '+') i++;
    out.push(args.slice(start, i + 1).map((word) => (word === '{}' && glob !== null ? glob : word)));
    i++;
  }
  return out;
}

/** find's actions that write their list of files to a file (`-fprintf FILE FORMAT`: the file first). */
const FIND_PRINTS_TO = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);

/**
 * What a `find` itself writes (docs/agent-hooks.md, "Shell commands and files"): the file
 * `-fprint`, `-fprint0`, `-fprintf` and `-fls` write, and with `-delete` the files it finds
 * (placeholderGlob's narrowing, else everything under its starting directories). A security probe
 * removed and overwrote workflows past an `ask` rule on writes with each.
 */
export const findAccess: ProgramAccess = (_program, args, access) => {
  for (let i = 0; i + 1 < args.length; i++) if (FIND_PRINTS_TO.has(args[i])) access.writes.push(args[i + 1]);
  if (!args.includes('-delete')) return;
  const { starts } = startsOf(args);
  const found = placeholderGlob(args);
  access.writes.push(...(found !== null ? [found] : starts.length > 0 ? starts : ['.']));
};
