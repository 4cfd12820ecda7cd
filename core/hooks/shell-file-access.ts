import { computedPathGlobs, isComputedPath, MAX_COMPUTED_PATHS } from './computed-paths.js';
import { inlineProgramReach, looksLikePath, MAX_INLINE_PATHS } from './inline-programs.js';
import { isDotNetMethod } from './powershell-line.js';
import { filesAnyProgramReads } from './files-any-program-reads.js';
import { applyAccess } from './shell-appliers.js';
import { archiveAccess, sevenZipAccess } from './shell-archivers.js';
import { CONTAINER_COPIERS, containerCopyAccess } from './container-copies.js';
import { findAccess } from './find-commands.js';
import { handedPaths } from './handed-paths.js';
import { UPLOADERS, uploaderAccess } from './shell-uploaders.js';
import { COMPRESSOR_NAMES, compressorAccess, keyAndDatabaseAccess, renameAccess, scriptLogAccess, splitAccess } from './shell-rewriters.js';
import { cryptoToolAccess } from './shell-crypto-tools.js';
import { gitAccess } from './shell-git-files.js';
import { inPlaceAccess } from './shell-in-place-scripts.js';
import type { FileAccessLists, ProgramAccess } from './program-access.js';
import { parsed } from './shell-operands.js';
import {
  COPIERS,
  EDITORS,
  LISTS,
  MODE_WRITERS,
  NAMES_ONLY,
  NO_VALUED,
  READERS,
  SCRIPT_FILES,
  SCRIPT_GIVEN,
  SCRIPTED,
  VALUED,
  WRITERS,
} from './shell-programs.js';
import { recursiveReads } from './shell-recursive-readers.js';
import { httpieAccess, transferAccess } from './shell-transfers.js';
import { argumentsRun, programOf, simpleCommands, type SimpleCommand } from './shell-words.js';
import { trimSlashes } from './trim-slashes.js';

/**
 * The files a shell command plainly reads or writes (docs/agent-hooks.md, "Shell commands and
 * files"): readers (`cat`, `head`, `awk`, `sed`, `grep`, …) read their file arguments, copiers
 * (`cp`, `install`, `rsync`) read their sources and write their target, editors and writers
 * (`tee`, `touch`, `sed -i`, `vim`, …) write, `dd` reads `if=` and writes `of=`, and `<`, `>`,
 * `>>`, `>|`, `<>` redirect; recursive readers (`grep -r`, `rg`, `tar c`, `cp -r`) read every
 * file under their directories (`P/**`); archivers, downloaders, git, `perl -i` and what an
 * interpreter's inline program names as a path (read and written) have modules of their own; a
 * `cd` before them moves where their relative paths point; a computed path is any. Defence in
 * depth for the policy's read and write globs, NOT a shell parser (shell-words.ts).
 */
export interface ShellFileAccess extends FileAccessLists {
  /**
   * The path-like words of a program none of shell-programs.ts's lists names (`node x.js .env`, `python3 -m json.tool .env`,
   * `./tool --config=.env`, `prettier --write x`): it may read and write them. Matched by the rules that refuse only
   * (tool-rules.ts's `alsoRead`, `alsoWritten`), so an `allow` rule naming the command still covers it. Absent when none.
   */
  handed?: string[];
  /**
   * A path longer than Linux opens (MAX_SHELL_PATH_CHARS), as written or past a `cd`, or more path than MAX_RECORDED_CHARS:
   * those past it are recorded as written (no `cd` or target directory before them); or more computed paths or paths in
   * inline programs than MAX_COMPUTED_PATHS and MAX_INLINE_PATHS. The call is to be refused, not matched.
   */
  tooLong?: true;
}

/** The longest path Linux opens (PATH_MAX). */
export const MAX_SHELL_PATH_CHARS = 4096;
/**
 * The most path characters recorded with a `cd` or a target directory before them: each is
 * rebuilt per operand, so `cd a/a/…; cat x x …` recorded the directory 4,000 times (17 s).
 */
export const MAX_RECORDED_CHARS = 1024 * 1024;

/** Programs whose words say more than which operands are files: archivers, compressors, downloaders, git, in-place script editors, patch appliers, splitters. */
const OWN_ACCESS: Record<string, ProgramAccess> = {
  tar: archiveAccess,
  zip: archiveAccess,
  '7z': sevenZipAccess,
  '7za': sevenZipAccess,
  '7zz': sevenZipAccess,
  '7zr': sevenZipAccess,
  curl: transferAccess,
  wget: transferAccess,
  http: httpieAccess,
  https: httpieAccess,
  xh: httpieAccess,
  xhs: httpieAccess,
  git: gitAccess,
  perl: inPlaceAccess,
  ruby: inPlaceAccess,
  patch: applyAccess,
  unzip: applyAccess,
  openssl: cryptoToolAccess,
  gpg: cryptoToolAccess,
  gpg2: cryptoToolAccess,
  ...Object.fromEntries(COMPRESSOR_NAMES.map((name) => [name, compressorAccess])),
  split: splitAccess,
  csplit: splitAccess,
  script: scriptLogAccess,
  rename: renameAccess,
  sqlite3: keyAndDatabaseAccess,
  find: findAccess,
  ...Object.fromEntries(UPLOADERS.map((name) => [name, uploaderAccess])),
  // vault's `key=@FILE` and `@FILE` send a file as HTTPie's request items do.
  vault: httpieAccess,
  'ssh-keygen': keyAndDatabaseAccess,
};

/** Interpreters in OWN_ACCESS (for their in-place edits) that may also run a script file handed its arguments. */
const INTERPRETERS_WITH_OWN_ACCESS: ReadonlySet<string> = new Set(['perl', 'ruby']);

/** Path characters spent on targets' names (MAX_RECORDED_CHARS), and whether a path went past what Linux opens. */
type Spent = { chars: number; tooLong: boolean };

/** `path` in `dir`; as written once the paths so built pass MAX_RECORDED_CHARS or one what Linux opens (the call is refused then). */
function joined(dir: string, path: string, spent: Spent): string {
  if (spent.tooLong) return path;
  const base = trimSlashes(dir);
  const length = base.length + 1 + path.length;
  spent.tooLong = length > MAX_SHELL_PATH_CHARS || (spent.chars += length) > MAX_RECORDED_CHARS;
  return spent.tooLong ? path : `${base}/${path}`;
}

/**
 * Where copying or moving `source` into the directory `dir` puts it (`cp -r w/workflows .github/`
 * writes `.github/workflows`); none for an rsync source ending in `/`, whose contents go by names
 * the line does not hold.
 */
function into(dir: string, source: string, program: string, spent: Spent): string[] {
  const trimmed = trimSlashes(source);
  const name = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  if (name === '' || name === '.' || name === '..' || (program === 'rsync' && trimmed !== source)) return [];
  const path = joined(dir, name, spent);
  return spent.tooLong ? [] : [path];
}

/** What one simple command reads and writes, its paths as written. */
function commandAccess(
  { words: command, input }: SimpleCommand,
  access: Required<FileAccessLists & Pick<ShellFileAccess, 'handed'>>,
  spent: Spent,
): void {
  const run = programOf(command);
  const { program } = run;
  // The words xargs hands over are computed paths (`find . -name .env | xargs cat` reads `.env`); `xargs -a FILE` reads FILE.
  const args = argumentsRun(run);
  access.reads.push(...(run.fed ?? []));
  access.handed.push(...(run.handed ?? []));
  access.reads.push(...filesAnyProgramReads(command));
  if (!program) return;
  // A .NET method's path-like arguments are files it may read and write, as an inline program's literals are.
  const dotNet = isDotNetMethod(program);
  const reach = dotNet ? undefined : inlineProgramReach(program, args, input);
  const named = reach?.paths ?? args.flatMap((arg) => arg.split(',')).filter(looksLikePath);
  spent.tooLong ||= named.length > MAX_INLINE_PATHS;
  if (Object.hasOwn(OWN_ACCESS, program)) {
    OWN_ACCESS[program](program, args, access, (dir, path) => joined(dir, path, spent));
    // Once: an in-place edit's files are its inline program's arguments too (`perl -pi -e … FILE`).
    for (const into of [access.reads, access.writes]) {
      const listed = new Set(into);
      into.push(...named.filter((path) => !listed.has(path)));
    }
    // perl and ruby run a script file as python does (`ruby x.rb .env`).
    if (reach?.inline === false && INTERPRETERS_WITH_OWN_ACCESS.has(program)) access.handed.push(...handedPaths(args));
    return;
  }
  for (const into of [access.reads, access.writes]) into.push(...named);
  const words = parsed(args, Object.hasOwn(VALUED, program) ? VALUED[program] : NO_VALUED);
  const { values } = words;
  const files = words.files.filter((f) => f !== '-');
  if (READERS.has(program)) {
    access.reads.push(...files);
    // `sort -o FILE` writes its output there, as `uniq IN OUT` does its second operand.
    if (program === 'sort') access.writes.push(...values('-o', '--output'));
    if (program === 'uniq') access.writes.push(...files.slice(1, 2));
  } else if (SCRIPTED.has(program)) {
    // The first operand is the pattern or script, unless an option gave it (`-e PATTERN`, `--regexp=PATTERN`, `-fFILE`).
    const scripts = values(...SCRIPT_FILES);
    const given = scripts.length > 0 || values(...SCRIPT_GIVEN).length > 0 || (Object.hasOwn(LISTS, program) && words.has(LISTS[program]));
    const read = given ? files : files.slice(1);
    access.reads.push(...(recursiveReads(program, words, read) ?? read), ...scripts);
    // `sed -i` and `yq -i` edit their files in place.
    const inPlace = program === 'sed' || program === 'yq' ? args.some((a) => /^-[a-zA-Z]*i/.test(a) || /^--in-?place/.test(a)) : false;
    if (inPlace) access.writes.push(...read);
  } else if (EDITORS.has(program)) {
    access.reads.push(...files);
    access.writes.push(...files);
  } else if (program === 'install' && args.some((a) => /^-[a-zA-Z]*d/.test(a) || a === '--directory')) access.writes.push(...files);
  else if (COPIERS.has(program) || program === 'mv' || program === 'ln') {
    // The target directory (the last `-t DIR` wins, as in GNU cp), else the last operand, which may be one: each source lands in it by its name.
    const dir = values('-t', '--target-directory').at(-1);
    const target = dir ?? (files.length >= 2 ? files.at(-1) : undefined);
    const sources = dir !== undefined ? files : files.slice(0, -1);
    // A copier's target is a directory when named one (`-t`, several sources, `dir/`) or the copy is recursive; `mv` and `ln` move or link into any directory.
    const recursive = args.some((a) => /^-[a-zA-Z]*[rRa]/.test(a) || a === '--recursive' || a === '--archive');
    const isDir = !COPIERS.has(program) || dir !== undefined || sources.length > 1 || recursive || target?.endsWith('/');
    const placed = target === undefined || !isDir ? [] : sources.flatMap((source) => into(target, source, program, spent));
    if (COPIERS.has(program)) {
      access.reads.push(...(recursiveReads(program, words, sources) ?? sources));
      if (target !== undefined) access.writes.push(target, ...placed);
    } else {
      access.writes.push(...(target === undefined ? files : [...sources, target, ...placed]));
      // A moved file is read: its content is then under a name no rule names (`mv .env x; cat x`).
      if (program === 'mv') access.reads.push(...(target === undefined ? files : sources));
    }
    if (program === 'ln') {
      // A link is read as what it points to (`ln -s .env x; cat x`); a relative symbolic one, from the directory the link is in.
      const linkDir = dir ?? (target?.includes('/') ? target.slice(0, target.lastIndexOf('/')) : undefined);
      const symbolic = words.has('-s', '--symbolic');
      for (const source of target === undefined ? files : sources) {
        access.reads.push(source);
        if (symbolic && linkDir !== undefined && !source.startsWith('/')) access.reads.push(joined(linkDir, source, spent));
      }
    }
  } else if (WRITERS.has(program)) access.writes.push(...files);
  else if (MODE_WRITERS.has(program)) access.writes.push(...files.slice(1));
  else if (program === 'move-item' || program === 'move') {
    access.reads.push(...files.slice(0, -1));
    access.writes.push(...files);
  } else if (program === 'dd')
    for (const arg of args) {
      if (arg.startsWith('if=')) access.reads.push(arg.slice(3));
      else if (arg.startsWith('of=')) access.writes.push(arg.slice(3));
    }
  else if (CONTAINER_COPIERS.has(program) && containerCopyAccess(args, access)) return;
  else if (!dotNet && !reach?.inline && !NAMES_ONLY.has(program)) access.handed.push(...handedPaths(args));
}

/**
 * The files the command plainly reads and writes, as written in it (relative to its working
 * directory, or absolute); from its simple commands when the caller read them already.
 */
export function shellFileAccess(command: string, commands: SimpleCommand[] = simpleCommands(command)): ShellFileAccess {
  const access: ShellFileAccess = { reads: [], writes: [] };
  const handed: string[] = [];
  const spent: Spent = { chars: 0, tooLong: false };
  // Where a `cd` earlier in the line moved to, relative to the working directory (or absolute); null: there, or unknown.
  let dir: string | null = null;
  // A path as seen from there: as written once it would pass what Linux opens or the recorded budget (the call is refused then).
  const place = (path: string) => {
    spent.tooLong ||= path.length > MAX_SHELL_PATH_CHARS;
    return dir === null || path.startsWith('/') ? path : joined(dir, path, spent);
  };
  // A path the line computes (`$f`, `$(…)`, or anything after `cd $D`) is every path it could be; past MAX_COMPUTED_PATHS the call is refused.
  let computed = 0;
  const placed = (path: string) => {
    const at = place(path);
    if (!isComputedPath(at)) return [at];
    spent.tooLong ||= ++computed > MAX_COMPUTED_PATHS;
    return computedPathGlobs(at);
  };
  for (const simple of commands) {
    const own = { reads: [] as string[], writes: [] as string[], handed: [] as string[] };
    for (const { op, target } of simple.redirections) {
      if (target === '/dev/null') continue;
      if (op !== '>') own.reads.push(target);
      if (op !== '<') own.writes.push(target);
    }
    commandAccess(simple, own, spent);
    for (const path of own.reads) access.reads.push(...placed(path));
    for (const path of own.writes) access.writes.push(...placed(path));
    for (const path of own.handed) handed.push(...placed(path));
    const { program, args } = programOf(simple.words);
    if (program !== 'cd' && program !== 'pushd') continue;
    const target = parsed(args, NO_VALUED).files[0];
    // Past a directory longer than Linux opens, paths are recorded as written and the call is refused (place).
    if (target && !/^[~-]/.test(target)) dir = place(target);
  }
  if (spent.tooLong) access.tooLong = true;
  if (handed.length > 0) access.handed = handed;
  return access;
}
