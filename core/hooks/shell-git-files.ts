import { parsed } from './shell-operands.js';
import { gitSubcommand } from './shell-wrappers.js';
import type { ProgramAccess } from './program-access.js';

/** The git subcommands that name files, with their options that take a value (`checkout -b NAME`, `restore -s TREE`). */
const FILE_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
  checkout: new Set(['-b', '-B', '--orphan', '--conflict', '--pathspec-from-file']),
  restore: new Set(['-s', '--source', '--conflict', '--pathspec-from-file']),
  rm: new Set(['--pathspec-from-file']),
  mv: new Set(),
  stash: new Set(['-m', '--message', '--pathspec-from-file']),
  show: new Set(),
  'cat-file': new Set(),
  diff: new Set(['-U', '-O', '-S', '-G', '--output', '--unified', '--relative', '--src-prefix', '--dst-prefix']),
  apply: new Set(['-p', '-C', '--directory', '--exclude', '--include', '--whitespace', '--build-fake-ancestor']),
  am: new Set(['-C', '-p', '--directory', '--exclude', '--include', '--whitespace', '--patch-format', '--resolvemsg']),
  add: new Set(['--chmod', '--pathspec-from-file']),
  commit: new Set([
    ...['-m', '--message', '-F', '--file', '-C', '-c', '--reuse-message', '--reedit-message', '--author', '--date'],
    ...['-t', '--template', '--fixup', '--squash', '--trailer', '--cleanup', '--pathspec-from-file'],
  ]),
  'hash-object': new Set(['-t', '--path']),
  'send-email': new Set(['--to', '--cc', '--bcc', '--from', '--subject', '--in-reply-to', '--smtp-server', '--identity']),
  // They print what the paths they name hold, or held (shows below).
  blame: new Set(['-L', '-S', '--contents', '--ignore-rev', '--ignore-revs-file']),
  annotate: new Set(['-L', '-S', '--contents']),
  log: new Set(['-L', '-n', '--max-count', '--skip', '--format', '--pretty', '--author', '--grep', '-G', '-S']),
  whatchanged: new Set(['-n', '--max-count']),
  grep: new Set(['-e', '-f', '-A', '-B', '-C', '--max-depth', '-m', '--max-count', '--threads', '-O', '--open-files-in-pager']),
  archive: new Set(['--format', '-o', '--output', '--prefix', '--remote', '--exec', '--add-file', '--add-virtual-file', '--mtime']),
  worktree: new Set(['-b', '-B', '--reason']),
  submodule: new Set(['-b', '--branch', '--name', '--reference', '--depth']),
  clone: new Set([
    ...['-o', '--origin', '-b', '--branch', '-u', '--upload-pack', '--reference', '--reference-if-able', '--separate-git-dir'],
    ...['--depth', '--shallow-since', '--shallow-exclude', '-c', '--config', '-j', '--jobs', '--template', '--filter'],
    ...['--bundle-uri', '--server-option', '--ref-format'],
  ]),
};
/** Subcommands that put the content of the files they name in the repository's objects (for a commit and a push) or in mail: they read them. */
const STORES = new Set(['add', 'commit', 'hash-object', 'send-email']);
/**
 * git's plumbing that builds what a commit holds without the working tree: a security probe put a
 * workflow in a commit with `git hash-object -w --stdin` and `git update-index --cacheinfo
 * 100644,SHA,.github/workflows/ci.yml`, never writing the file. Each writes the whole tree (`.`).
 */
const PLUMBING = new Set([
  ...['update-index', 'read-tree', 'mktree', 'commit-tree', 'fast-import', 'filter-branch', 'filter-repo'],
  // An object swapped for another everywhere it is read, and the index written out as files.
  ...['replace', 'checkout-index'],
]);
/** `git stash`'s commands other than `push` (whose paths it stores). */
const STASH_COMMANDS = new Set(['list', 'show', 'drop', 'pop', 'apply', 'branch', 'clear', 'create', 'store', 'save']);
/** `git apply`'s options that only look at a patch. */
const APPLY_LOOKS = ['--check', '--stat', '--numstat', '--summary'];

/** The path a `REV:PATH` object name reads (`HEAD:.env`, `:0:.env` from the index), if it names one. */
function objectPath(name: string): string | undefined {
  const colon = name.indexOf(':');
  if (colon < 0) return undefined;
  const path = colon === 0 && /^[0-3]:/.test(name.slice(1)) ? name.slice(3) : name.slice(colon + 1);
  return path === '' ? undefined : path;
}

/** The directory `git clone URL` makes without one named: the URL's last name, without `.git` (`https://x/y.git` makes `y`). */
function clonedDirectory(url: string): string | undefined {
  const names = url.split(/[/:\\]/).filter(Boolean);
  const name = names.at(-1)?.replace(/\.git$/, '');
  return name === '' ? undefined : name;
}

/** Whether a word can only be a path: no ref name starts a component with `.` or ends with `/` (git check-ref-format). */
const notARef = (word: string) => word.startsWith('.') || word.includes('/.') || word.endsWith('/');

/** Subcommands that print what the files they name hold (`blame`), or what their history holds (`log -p`, `diff REV`, `grep`). */
const SHOWS = new Set(['blame', 'annotate', 'log', 'whatchanged', 'grep', 'diff', 'show']);

/**
 * The paths a command that shows them names: every word after `--`, the path of a `REV:PATH`
 * object name (`HEAD:.env`, `:0:.env` from the index), an operand that can only be a path
 * (notARef: `.env`, `config/.env.local`), and blame's file (its last operand). A word that may be
 * a revision (`HEAD`, `main`) is not read as a path.
 */
function shownPaths(subcommand: string, rest: readonly string[], files: readonly string[]): string[] {
  const dashes = rest.indexOf('--');
  const named = files.flatMap((word) => {
    const path = objectPath(word);
    return path !== undefined ? [path] : notARef(word) ? [word] : [];
  });
  const last = subcommand === 'blame' || subcommand === 'annotate' ? files.slice(-1) : [];
  return [...new Set([...(dashes >= 0 ? rest.slice(dashes + 1) : []), ...named, ...last])];
}

/**
 * The files a git command reads or writes (docs/agent-hooks.md, "Shell commands and files"):
 * `checkout [REF] -- PATHS`, `checkout REF PATHS`, `checkout .`, `restore PATHS`, `rm` and `mv`
 * write them; `cat-file -p REV:PATH` reads PATH, `diff --no-index` its files, `blame`, `log`, `diff`,
 * `grep` and `show` the paths they name (shownPaths: `show REV:PATH` reads PATH); `apply` and `am` read their
 * patches and write the working tree (unless `apply` only looks), as the plumbing that builds a
 * commit's tree (PLUMBING) does; a `git -C DIR` before them
 * puts the paths in DIR. Past git's global options (gitSubcommand), as the command forms read them.
 */
export const gitAccess: ProgramAccess = (_program, args, access, join) => {
  const [subcommand, ...rest] = gitSubcommand(args);
  if (subcommand === undefined || (!Object.hasOwn(FILE_SUBCOMMANDS, subcommand) && !PLUMBING.has(subcommand))) return;
  let dir: string | undefined;
  for (let i = 0; i < args.length - rest.length - 1; i++)
    if (args[i] === '-C' && i + 1 < args.length) {
      const next = args[++i];
      dir = dir === undefined || next.startsWith('/') ? next : join(dir, next);
    }
  const from = (path: string) => (dir === undefined || path.startsWith('/') ? path : join(dir, path));
  if (PLUMBING.has(subcommand)) {
    access.writes.push(from('.'));
    return;
  }
  const words = parsed(rest, FILE_SUBCOMMANDS[subcommand]);
  const { files } = words;
  if (subcommand === 'stash') {
    // `stash push PATHS` (or `stash -- PATHS`) stores what the paths hold, as `add` does; its other commands name stashes.
    const paths = files[0] === 'push' ? files.slice(1) : STASH_COMMANDS.has(files[0] ?? '') ? [] : files;
    access.reads.push(...[...paths, ...words.values('--pathspec-from-file')].map(from));
    return;
  }
  if (STORES.has(subcommand)) {
    access.reads.push(...[...files, ...words.values('-F', '--file', '--template', '--pathspec-from-file')].map(from));
    // `hash-object -t tree` builds a tree as `mktree` does.
    if (words.values('-t').some((type) => type === 'tree' || type === 'commit')) access.writes.push(from('.'));
    return;
  }
  if (subcommand === 'archive') {
    // Its first operand is the tree it archives; the rest, paths in it.
    access.reads.push(...[...files.slice(1), ...words.values('--add-file')].map(from));
    access.writes.push(...words.values('-o', '--output').map(from));
    return;
  }
  if (subcommand === 'worktree' || subcommand === 'clone' || subcommand === 'submodule') {
    // `worktree add PATH` checks a tree out there; `clone URL [DIR]` fills DIR, as `submodule add URL [DIR]` does.
    const cloned = subcommand === 'submodule' ? (files[0] === 'add' ? files.slice(1) : []) : files;
    const made = subcommand === 'worktree' ? (files[0] === 'add' ? files[1] : undefined) : (cloned[1] ?? clonedDirectory(cloned[0] ?? ''));
    if (made !== undefined) access.writes.push(from(made));
    return;
  }
  if (subcommand === 'cat-file') {
    for (const name of files) {
      const path = objectPath(name);
      if (path !== undefined) access.reads.push(from(path));
    }
    return;
  }
  // `git diff --no-index A B` compares two files, any files: it reads both.
  if (subcommand === 'diff' && words.has('--no-index')) access.reads.push(...files.map(from));
  else if (SHOWS.has(subcommand)) access.reads.push(...shownPaths(subcommand, rest, files).map(from));
  if (SHOWS.has(subcommand)) return;
  if (subcommand === 'apply' || subcommand === 'am') {
    // The files a patch changes are in the patch, not the line: the working tree is written (shell-appliers.ts).
    access.reads.push(...files.map(from));
    if (subcommand === 'am' || words.has('--apply') || !words.has(...APPLY_LOOKS)) access.writes.push(from('.'));
    return;
  }
  if (subcommand !== 'checkout') {
    access.writes.push(...files.map(from));
    return;
  }
  // Without `--`, checkout's first operand is the branch or commit it takes the paths from, unless no ref is so named (`git checkout .`).
  const dashes = rest.indexOf('--');
  const paths = dashes >= 0 ? rest.slice(dashes + 1) : files.length === 1 && notARef(files[0]) ? files : files.slice(1);
  access.writes.push(...paths.map(from));
};
