/**
 * Programs given inline to an interpreter (`python -c`, `node -e`, `perl -e`, `ruby -e`,
 * `php -r`, `awk '…'`; docs/agent-hooks.md, "Shell commands and files"). A security probe read
 * `.env` past `read: ".env*"` with `python3 -c "print(open('.env').read())"` and pushed past
 * `git push --force*` with `python -c 'import os; os.system("git push --force")'`. What such a
 * program does is not read (that would take each language's parser, and `'.e' + 'nv'` defeats any
 * reading short of running it), but what it plainly names is: a string literal that looks like a
 * path is a file it may read and write, and the literals handed to a shell (`os.system(…)`,
 * `subprocess.run([…])`, `execSync(…)`, perl's and ruby's backticks) are a shell line of their own.
 */

/**
 * The most paths an inline program may name: each is read and written, matched against every
 * rule; 20,000 (`python3 -c "'a/1.c', 'a/2.c', …"`) took over a second per call. Past it the call is
 * refused, as a line naming too much is.
 */
export const MAX_INLINE_PATHS = 1024;

interface InlineSpec {
  /** Options whose value is the program (`-c CODE`, `-cCODE`, `--eval=CODE`). */
  code: ReadonlySet<string>;
  /** Other options taking a value (`-W arg`, `-I dir`), so it is not read as the program or a flag. */
  valued: ReadonlySet<string>;
  /** Options after which the words are another program's (`python -m mod`) or the program is a file (`awk -f`). */
  stop?: ReadonlySet<string>;
  /** awk's: with no option giving it, the first operand is the program. */
  operand?: true;
  /** Quotes whose literal is a shell command (perl's, ruby's and php's backticks). */
  shellQuote?: string;
}

const set = (...names: string[]): ReadonlySet<string> => new Set(names);
const NODE: InlineSpec = {
  code: set('-e', '--eval', '-p', '--print'),
  valued: set('-r', '--require', '--import', '--input-type', '-C', '--conditions', '--loader', '--experimental-loader'),
};
const AWK: InlineSpec = {
  code: set('-e', '--source'),
  valued: set('-F', '-v', '--assign', '--field-separator'),
  stop: set('-f', '--file'),
  operand: true,
};
const SPECS: Record<string, InlineSpec> = {
  python: { code: set('-c'), valued: set('-W', '-X'), stop: set('-m') },
  node: NODE,
  bun: NODE,
  perl: { code: set('-e', '-E'), valued: set('-I', '-M', '-m'), shellQuote: '`' },
  ruby: { code: set('-e'), valued: set('-I', '-r', '-C', '-E'), shellQuote: '`' },
  php: { code: set('-r'), valued: set('-c', '-d', '-z'), shellQuote: '`' },
  lua: { code: set('-e'), valued: set('-l') },
  rscript: { code: set('-e'), valued: set() },
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  nawk: AWK,
};

/** `python3.12` and `pypy3` as python, `nodejs` as node, `luajit` as lua. */
function specOf(program: string): InlineSpec | undefined {
  const name = /^(?:python|pypy)[\d.]*$/.test(program) ? 'python' : program === 'nodejs' ? 'node' : program === 'luajit' ? 'lua' : program;
  return Object.hasOwn(SPECS, name) ? SPECS[name] : undefined;
}

/**
 * The inline programs of an interpreter's words (perl takes several `-e`), none when it runs a
 * file or a module; with none, `input` (a here-document, `<<<`) when it reads its program from
 * standard input (no file named, or `-`), as all but awk do. `operands`: the words after the
 * program, its arguments (`python3 -c '…' .env`, `perl -ne print .env`).
 */
function inlineCode(
  spec: InlineSpec,
  args: readonly string[],
  input: string | undefined,
): { codes: string[]; operands: readonly string[] } {
  const codes: string[] = [];
  let i = 0;
  for (; i < args.length && args[i].startsWith('-') && args[i] !== '-'; i++) {
    const word = args[i];
    if (word === '--') {
      i++;
      break;
    }
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = eq < 0 ? word : word.slice(0, eq);
      if (spec.stop?.has(name)) return { codes, operands: [] };
      const value = eq < 0 ? args[i + 1] : word.slice(eq + 1);
      if (spec.code.has(name) && value !== undefined) codes.push(value);
      if (eq < 0 && (spec.code.has(name) || spec.valued.has(name))) i++;
      continue;
    }
    for (let k = 1; k < word.length; k++) {
      const name = `-${word[k]}`;
      if (spec.stop?.has(name)) return { codes, operands: [] };
      // node's `-pe CODE` is `-p -e CODE`.
      if (!spec.code.has(name) && !spec.valued.has(name)) continue;
      if (name === '-p' && k + 1 < word.length) continue;
      const rest = word.slice(k + 1);
      const value = rest !== '' ? rest : args[++i];
      if (spec.code.has(name) && value !== undefined) codes.push(value);
      break;
    }
  }
  // The words after the program are its arguments (`sys.argv`, `@ARGV`, awk's files), which it may open.
  if (codes.length > 0) return { codes, operands: args.slice(i) };
  if (spec.operand && i < args.length) return { codes: [args[i]], operands: args.slice(i + 1) };
  if (!spec.operand && input !== undefined && (i >= args.length || args[i] === '-')) return { codes: [input], operands: args.slice(i + 1) };
  return { codes, operands: [] };
}

/** A string literal at `open` (its quote) and where it ends: its text, a backslash taking the character after it. */
function literalAt(code: string, open: number): { text: string; end: number } {
  const quote = code[open];
  let text = '';
  let i = open + 1;
  for (; i < code.length && code[i] !== quote; i++) {
    if (code[i] === '\\' && i + 1 < code.length) i++;
    text += code[i];
  }
  return { text, end: i + 1 };
}

/** Calls that hand their arguments to a shell or run them as a command, in the languages above. */
const RUNS =
  /\b(?:system|popen|getoutput|getstatusoutput|check_output|check_call|call|run|Popen|exec|execSync|execFileSync|spawn|spawnSync|execFile|shell_exec|passthru|proc_open)\s*\(/y;

/** The literals of `code`, and the shell lines it hands over: a run call's literals, up to its `)`, joined by spaces; a shell quote's literal. */
function readCode(code: string, spec: InlineSpec): { literals: string[]; lines: string[] } {
  const literals: string[] = [];
  const lines: string[] = [];
  // The run call being read: its depth of parentheses and its literals so far.
  let call: { depth: number; words: string[] } | null = null;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === "'" || c === '"' || c === '`') {
      const { text, end } = literalAt(code, i);
      literals.push(text);
      if (c === spec.shellQuote) lines.push(text);
      call?.words.push(text);
      i = end - 1;
    } else if (call && (c === '(' || c === ')')) {
      call.depth += c === '(' ? 1 : -1;
      if (call.depth === 0) {
        if (call.words.length > 0) lines.push(call.words.join(' '));
        call = null;
      }
    } else if (!call && /\w/.test(c) && (i === 0 || !/\w/.test(code[i - 1]))) {
      RUNS.lastIndex = i;
      const found = RUNS.exec(code);
      if (found) {
        call = { depth: 1, words: [] };
        i += found[0].length - 1;
      }
    }
  }
  if (call && call.words.length > 0) lines.push(call.words.join(' '));
  return { literals, lines };
}

/** Whether a literal looks like a path: a `/` or a `.` in a word, not `.`, `..` or `/` alone (`'.'.join(…)`). */
export const looksLikePath = (text: string) => !/\s/.test(text) && /[./]/.test(text) && !/^(?:\.{1,2}|\/)\/?$/.test(text);

/** What an interpreter's inline programs name: the paths they may open, the shell lines they run. None for another program. */
export function inlineProgramReach(program: string, args: readonly string[], input?: string): InlineReach {
  // Read for the scripts it hands over (shell-wrappers.ts) and for its paths (shell-file-access.ts): once.
  const known = reached.get(args);
  if (known !== undefined && known.program === program && known.input === input) return known.reach;
  const reach = readReach(program, args, input);
  reached.set(args, { program, input, reach });
  return reach;
}

/**
 * What an inline program names: path-like literals, and the shell lines it runs; `inline`: whether the words gave a program
 * (else the interpreter runs a file or a module, and its words are read as any program's). Its arrays are shared: not to be changed.
 */
type InlineReach = { paths: string[]; lines: string[]; inline: boolean };
const reached = new WeakMap<readonly string[], { program: string; input: string | undefined; reach: InlineReach }>();

function readReach(program: string, args: readonly string[], input?: string): InlineReach {
  const spec = specOf(program);
  if (spec === undefined) return { paths: [], lines: [], inline: false };
  const paths: string[] = [];
  const lines: string[] = [];
  const { codes, operands } = inlineCode(spec, args, input);
  for (const code of codes) {
    const read = readCode(code, spec);
    paths.push(...read.literals.filter(looksLikePath));
    lines.push(...read.lines);
  }
  paths.push(...operands.filter(looksLikePath));
  return { paths: [...new Set(paths)], lines, inline: codes.length > 0 };
}
