/**
 * The files a shell command plainly reads or writes (docs/agent-hooks.md, "Shell commands and
 * files"): `cat`, `head`, `tail`, `less`, `grep` and the like read their file arguments, `cp`
 * reads its sources and writes its target, `tee` writes, and `<`, `>`, `>>` redirect. Defence in
 * depth for the policy's read and write globs, NOT a shell parser: variables, globs, `eval`,
 * subshells, interpreters (`python -c`, `node -e`) and aliases are not followed.
 */
export interface ShellFileAccess {
  reads: string[];
  writes: string[];
}

/** Commands whose every non-option argument is a file they read. */
const READERS = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'nl',
  'wc',
  'sort',
  'uniq',
  'diff',
  'source',
  '.',
  'base64',
  'xxd',
  'od',
  'strings',
]);
/** Commands whose first non-option argument is a pattern, the rest files they read. */
const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag']);
/** Characters that end a simple command. */
const SEPARATORS = new Set([';', '|', '&', '\n', '(', ')', '`']);

type Token = { word: string } | { op: string };

/** Words and operators of a command line: quotes group, separators and redirections stand apart. */
function tokens(command: string): Token[] {
  const out: Token[] = [];
  let word = '';
  let inWord = false;
  const flush = () => {
    if (inWord) out.push({ word });
    word = '';
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      const stop = end < 0 ? command.length : end;
      word += command.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (c === ' ' || c === '\t') flush();
    else if (SEPARATORS.has(c)) {
      flush();
      out.push({ op: ';' });
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
      if (command[i + 1] === '>') i++;
      out.push({ op: c === '<' ? '<' : '>' });
    } else {
      word += c;
      inWord = true;
    }
  }
  flush();
  return out;
}

/** Options whose value is the next word (`head -n 3`, `grep -A 2`), so that word is no file. */
const READER_VALUED = new Set(['-n', '-c']);
const SEARCHER_VALUED = new Set(['-m', '-A', '-B', '-C', '-e', '-f']);

/** A command's operands: its words that are neither options nor an option's value. */
function operands(args: string[], valued: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (valued.has(args[i])) i++;
    else if (!args[i].startsWith('-')) out.push(args[i]);
  }
  return out;
}

/** What one simple command (its words, redirections removed) reads and writes. */
function commandAccess(words: string[], access: ShellFileAccess): void {
  let rest = words;
  while (rest.length > 0 && (rest[0] === 'sudo' || rest[0] === 'command' || rest[0] === 'exec' || /^\w+=/.test(rest[0])))
    rest = rest.slice(1);
  const [name, ...args] = rest;
  if (!name) return;
  const program = name.slice(name.lastIndexOf('/') + 1);
  const files = operands(args, SEARCHERS.has(program) ? SEARCHER_VALUED : READER_VALUED);
  if (READERS.has(program)) access.reads.push(...files);
  // The first operand is the pattern, unless an option gave it (`-e PATTERN`, `-f FILE`).
  else if (SEARCHERS.has(program)) {
    access.reads.push(...(args.some((a) => a === '-e' || a === '-f') ? files : files.slice(1)));
    access.reads.push(...args.filter((_, i) => args[i - 1] === '-f'));
  } else if (program === 'cp' && files.length >= 2) {
    access.reads.push(...files.slice(0, -1));
    access.writes.push(files[files.length - 1]);
  } else if (program === 'mv' && files.length >= 2) access.writes.push(...files);
  else if (program === 'tee' || program === 'touch' || program === 'rm') access.writes.push(...files);
}

/** The files the command plainly reads and writes, as written in it (relative to its working directory, or absolute). */
export function shellFileAccess(command: string): ShellFileAccess {
  const access: ShellFileAccess = { reads: [], writes: [] };
  let words: string[] = [];
  const list = tokens(command);
  for (let i = 0; i < list.length; i++) {
    const token = list[i];
    if ('word' in token) words.push(token.word);
    else if (token.op === ';') {
      commandAccess(words, access);
      words = [];
    } else {
      const target = list[i + 1];
      if (target && 'word' in target) {
        if (target.word !== '/dev/null') (token.op === '<' ? access.reads : access.writes).push(target.word);
        i++;
      }
    }
  }
  commandAccess(words, access);
  return access;
}
