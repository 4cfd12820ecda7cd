import { SEARCH_VALUED } from './shell-search-options.js';

/**
 * What the programs shell-file-access.ts knows do with their words, by kind: readers, scripted
 * readers, editors, writers, copiers, and the options that take a value (docs/agent-hooks.md,
 * "Shell commands and files").
 */

/** Commands whose every non-option argument is a file they read. */
export const READERS = new Set([
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
  // Compressors and splitters: what they write holds what they read (`gzip -c .env`, `split .env x`).
  'gzip',
  'bzip2',
  'xz',
  'zstd',
  'lz4',
  'split',
  'csplit',
  'bat',
  'batcat',
  'view',
  'most',
  // Printers of a file's lines, checksums and highlighters.
  ...['pr', 'expand', 'unexpand', 'look', 'sum', 'b2sum', 'sha224sum', 'sha384sum', 'pygmentize', 'highlight', 'glow'],
  ...['base32', 'basenc', 'uuencode', 'join'],
  // PowerShell's (Copilot CLI's `powershell` tool; names are read lower-cased): `Get-Content .env`, `type .env`.
  'get-content',
  'gc',
  'type',
  'select-string',
  'get-filehash',
]);
/** Commands whose first non-option argument is a pattern or script, the rest files they read (unless `-e` or `-f` gave it). */
export const SCRIPTED = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'awk', 'gawk', 'mawk', 'sed', 'jq', 'yq']);
/** Options that list files instead of searching them: no operand is a pattern then. */
export const LISTS: Record<string, string> = { rg: '--files', ack: '-f' };
/** Editors: they read and write their files. */
export const EDITORS = new Set([
  ...['vi', 'vim', 'nvim', 'nano', 'emacs', 'ed', 'ex', 'pico', 'micro', 'joe', 'kak', 'hx', 'helix', 'mcedit'],
  // Editors with windows of their own, started from a shell.
  ...['code', 'codium', 'cursor', 'subl', 'gedit', 'kate'],
  // Converters that rewrite their files in place.
  ...['dos2unix', 'unix2dos', 'mac2unix', 'unix2mac'],
]);
/** Commands that change or create every file they name. */
export const WRITERS = new Set([
  'tee',
  'sponge',
  'mktemp',
  'touch',
  'rm',
  'unlink',
  'shred',
  'truncate',
  'mkdir',
  'rmdir',
  // PowerShell's: a value (`-Value x`) read as a file too is a harmless extra path.
  'set-content',
  'add-content',
  'clear-content',
  'out-file',
  'new-item',
  'remove-item',
  'del',
  'erase',
  'ri',
]);
/** Commands that change the files after their first operand (a mode or an owner). */
export const MODE_WRITERS = new Set(['chmod', 'chown', 'chgrp']);
/**
 * Commands that take paths as names, reading no file's content (listing, testing, naming, moving
 * the shell): a path they are handed is not one they read. Any other program none of the lists
 * above names may read what it is handed (`node x.js .env`, shell-file-access.ts).
 */
export const NAMES_ONLY = new Set([
  ...['echo', 'printf', 'test', '[', '[[', 'ls', 'dir', 'stat', 'tree', 'du', 'df', 'realpath', 'readlink', 'basename', 'dirname'],
  ...['cd', 'pushd', 'popd', 'which', 'whereis', 'command', 'hash', 'true', 'false', ':', 'export', 'unset', 'set', 'alias'],
  ...['unalias', 'declare', 'typeset', 'local', 'readonly', 'read', 'sleep', 'kill', 'pkill', 'pgrep', 'wait', 'exit', 'return'],
  ...['shift', 'trap', 'umask', 'ulimit', 'mkfifo', 'mknod', 'getfacl', 'lsattr', 'namei', 'pathchk', 'seq', 'expr', 'nohup'],
  ...['let', 'pwd', 'date', 'id', 'whoami', 'uname', 'printenv', 'history', 'jobs', 'fg', 'bg', 'disown', 'clear', 'tput'],
  ...['for', 'in', 'if', 'while', 'until', 'case', 'select', 'function', 'fi', 'done', 'esac', 'yes', 'ps', 'lsof', 'fuser'],
  // PowerShell's (Copilot CLI's `powershell` tool; names are read lower-cased).
  ...['write-output', 'write-host', 'set-location', 'sl', 'get-childitem', 'gci', 'test-path', 'resolve-path', 'get-item'],
  ...['gi', 'split-path', 'join-path', 'get-location'],
]);
/** Commands that read their sources and write their last operand (or `-t DIR`). */
export const COPIERS = new Set(['cp', 'install', 'rsync', 'scp', 'copy-item', 'copy']);

/**
 * Options whose value is the next word, by program (`head -n 3`, `grep -A 2`, `cp -t dir`), so
 * that word is no file. Any other option is taken for a flag: a value read as a file too is a
 * harmless extra path, a file read as a value would be missed.
 */
export const VALUED: Record<string, ReadonlySet<string>> = {
  head: new Set(['-n', '-c']),
  tail: new Set(['-n', '-c']),
  sort: new Set(['-o', '--output', '-k', '-t', '-S', '-T']),
  cut: new Set(['-d', '-f', '-b', '-c']),
  cp: new Set(['-t', '-S', '--target-directory', '--suffix']),
  install: new Set(['-t', '-m', '-o', '-g', '-S', '--target-directory', '--mode', '--owner', '--group', '--suffix']),
  mv: new Set(['-t', '-S', '--target-directory', '--suffix']),
  ln: new Set(['-t', '-S', '--target-directory', '--suffix']),
  rsync: new Set(['-e', '--rsh', '-f', '--filter', '--exclude', '--include', '--chmod', '--chown', '--port', '--timeout', '--bwlimit']),
  scp: new Set(['-c', '-D', '-J', '-l', '-o', '-P', '-S', '-X']),
  awk: new Set(['-F', '-v', '-f', '--file']),
  gawk: new Set(['-F', '-v', '-f', '-e', '--file', '--source']),
  mawk: new Set(['-F', '-v', '-f']),
  sed: new Set(['-e', '-f', '-l', '--expression', '--file']),
  jq: new Set(['-f', '--from-file']),
  yq: new Set(['-f', '--from-file']),
  truncate: new Set(['-s', '-r']),
  ...SEARCH_VALUED,
};
/** Options that give a pattern or script, so no operand is one; those that give it in a file, which is read. */
export const SCRIPT_GIVEN = ['-e', '--regexp', '--expression', '--source', '--match'];
export const SCRIPT_FILES = ['-f', '--file', '--from-file'];
export const NO_VALUED: ReadonlySet<string> = new Set();
