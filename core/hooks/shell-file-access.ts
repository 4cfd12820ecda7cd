import { programOf, simpleCommands, type SimpleCommand } from './shell-words.js';

/**
 * The files a shell command plainly reads or writes (docs/agent-hooks.md, "Shell commands and
 * files"): readers (`cat`, `head`, `awk`, `sed`, `grep`, …) read their file arguments, copiers
 * (`cp`, `install`, `rsync`) read their sources and write their target, editors and writers
 * (`tee`, `touch`, `sed -i`, `vim`, …) write, `dd` reads `if=` and writes `of=`, and `<`, `>`,
 * `>>`, `>|` redirect; a `cd` before them moves where their relative paths point. Defence in
 * depth for the policy's read and write globs, NOT a shell parser (shell-words.ts).
 */
export interface ShellFileAccess {
  reads: string[];
  writes: string[];
}

/** Commands whose every non-option argument is a file they read. */
const READERS = new Set([
  'cat',
  'tac',
  'head',
  'tail',
  'less',
  'more',
  'nl',
  'wc',
  'sort',
  'uniq',
  'cut',
  'paste',
  'rev',
  'fold',
  'fmt',
  'column',
  'diff',
  'cmp',
  'comm',
  'source',
  '.',
  'base64',
  'xxd',
  'od',
  'hexdump',
  'strings',
  'file',
  'iconv',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'shasum',
  'cksum',
  'zcat',
  'bat',
  'view',
]);
/** Commands whose first non-option argument is a pattern or script, the rest files they read (unless `-e` or `-f` gave it). */
const SCRIPTED = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'awk', 'gawk', 'mawk', 'sed', 'jq', 'yq']);
/** Editors: they read and write their files. */
const EDITORS = new Set(['vi', 'vim', 'nvim', 'nano', 'emacs', 'ed', 'ex']);
/** Commands that change or create every file they name. */
const WRITERS = new Set(['tee', 'touch', 'rm', 'unlink', 'shred', 'truncate', 'mkdir', 'rmdir']);
/** Commands that change the files after their first operand (a mode or an owner). */
const MODE_WRITERS = new Set(['chmod', 'chown', 'chgrp']);
/** Commands that read their sources and write their last operand (or `-t DIR`). */
const COPIERS = new Set(['cp', 'install', 'rsync', 'scp']);

/**
 * Options whose value is the next word, by program (`head -n 3`, `grep -A 2`, `cp -t dir`), so
 * that word is no file. Any other option is taken for a flag: a value read as a file too is a
 * harmless extra path, a file read as a value would be missed.
 */
const VALUED: Record<string, ReadonlySet<string>> = {
  head: new Set(['-n', '-c']),
  tail: new Set(['-n', '-c']),
  sort: new Set(['-o', '-k', '-t', '-S', '-T']),
  cut: new Set(['-d', '-f', '-b', '-c']),
  cp: new Set(['-t', '-S']),
  install: new Set(['-t', '-m', '-o', '-g', '-S']),
  mv: new Set(['-t', '-S']),
  ln: new Set(['-t', '-S']),
  awk: new Set(['-F', '-v']),
  gawk: new Set(['-F', '-v']),
  mawk: new Set(['-F', '-v']),
  truncate: new Set(['-s', '-r']),
};
const SEARCH_VALUED = new Set(['-m', '-A', '-B', '-C', '-e', '-f', '-g', '-t', '--glob', '--type']);
const NO_VALUED: ReadonlySet<string> = new Set();
const valuedOf = (program: string) =>
  ['grep', 'egrep', 'fgrep', 'rg', 'ag'].includes(program) ? SEARCH_VALUED : Object.hasOwn(VALUED, program) ? VALUED[program] : NO_VALUED;

/** A command's operands: its words that are neither options nor an option's value. */
function operands(args: string[], valued: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (valued.has(args[i])) i++;
    else if (!args[i].startsWith('-') || args[i] === '-') out.push(args[i]);
  }
  return out;
}

const valueOf = (args: string[], option: string) => args.filter((_, i) => args[i - 1] === option);

/** What one simple command reads and writes, its paths as written. */
function commandAccess(words: string[], access: ShellFileAccess): void {
  const { program, args } = programOf(words);
  if (!program) return;
  const files = operands(args, valuedOf(program)).filter((f) => f !== '-');
  if (READERS.has(program)) access.reads.push(...files);
  else if (SCRIPTED.has(program)) {
    // The first operand is the pattern or script, unless an option gave it (`-e PATTERN`, `-f FILE`).
    const given = args.includes('-e') || args.includes('-f');
    const read = given ? files : files.slice(1);
    access.reads.push(...read, ...valueOf(args, '-f'));
    if (program === 'sed' && args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) access.writes.push(...read);
  } else if (EDITORS.has(program)) {
    access.reads.push(...files);
    access.writes.push(...files);
  } else if (COPIERS.has(program)) {
    const target = [...valueOf(args, '-t'), ...valueOf(args, '--target-directory')];
    const sources = target.length > 0 ? files : files.slice(0, -1);
    if (target.length > 0 || files.length >= 2) {
      access.reads.push(...sources);
      access.writes.push(...(target.length > 0 ? target : files.slice(-1)));
    }
  } else if (program === 'mv' || program === 'ln') access.writes.push(...files, ...valueOf(args, '-t'));
  else if (WRITERS.has(program)) access.writes.push(...files);
  else if (MODE_WRITERS.has(program)) access.writes.push(...files.slice(1));
  else if (program === 'dd')
    for (const arg of args) {
      if (arg.startsWith('if=')) access.reads.push(arg.slice(3));
      else if (arg.startsWith('of=')) access.writes.push(arg.slice(3));
    }
}

/** `path` as seen from a directory `cd` moved to (absolute paths stay). */
const within = (dir: string | null, path: string) => (dir === null || path.startsWith('/') ? path : `${dir}/${path}`);

/**
 * The files the command plainly reads and writes, as written in it (relative to its working
 * directory, or absolute); from its simple commands when the caller read them already.
 */
export function shellFileAccess(command: string, commands: SimpleCommand[] = simpleCommands(command)): ShellFileAccess {
  const access: ShellFileAccess = { reads: [], writes: [] };
  // Where a `cd` earlier in the line moved to, relative to the working directory (or absolute).
  let dir: string | null = null;
  for (const simple of commands) {
    const own: ShellFileAccess = { reads: [], writes: [] };
    for (const { op, target } of simple.redirections) if (target !== '/dev/null') (op === '<' ? own.reads : own.writes).push(target);
    commandAccess(simple.words, own);
    access.reads.push(...own.reads.map((p) => within(dir, p)));
    access.writes.push(...own.writes.map((p) => within(dir, p)));
    const { program, args } = programOf(simple.words);
    if (program !== 'cd' && program !== 'pushd') continue;
    const target = operands(args, NO_VALUED)[0];
    if (target && !/^[~$-]/.test(target)) dir = within(dir, target);
  }
  return access;
}
