import type { parsed } from './shell-operands.js';
import { filesUnder } from './files-under.js';

const GREP_RECURSIVE = ['-r', '-R', '--recursive', '--dereference-recursive'];
const COPY_RECURSIVE = ['-r', '-R', '-a', '--recursive', '--archive'];

/** The options that make a program read the directories it names whole; none: it always does. */
const RECURSIVE: Record<string, readonly string[]> = {
  grep: GREP_RECURSIVE,
  egrep: GREP_RECURSIVE,
  fgrep: GREP_RECURSIVE,
  rg: [],
  ag: [],
  ack: [],
  cp: COPY_RECURSIVE,
  scp: COPY_RECURSIVE,
  rsync: ['-r', '-a', '--recursive', '--archive'],
  tar: [],
  zip: ['-r', '--recurse-paths'],
  '7z': [],
};
/**
 * Searchers that leave hidden files out unless an option names them, by those options: their
 * reads are every file under `P` but hidden ones (glob-overlap.ts reads a pattern so), as Claude's Grep
 * is read (searched-files.ts). rg's `-u` alone only stops reading .gitignore; it is counted.
 */
const HIDDEN_OPTIONS: Record<string, readonly string[]> = {
  rg: ['--hidden', '-.', '-u', '--unrestricted'],
  ag: ['--hidden', '-u', '--unrestricted'],
};
/** Searchers, which search their working directory when they name no path (GNU grep -r as well). */
const SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack']);

/**
 * The paths a recursive reader reads (docs/agent-hooks.md, "Shell commands and files"): each
 * path it names and every file under it (`P/**`), hidden ones included, so a `read` glob such as
 * `.env*` holds for `grep -r KEY .`, `rg --hidden KEY`, `tar czf x.tgz .` or `cp -r . /tmp/x`
 * (rg and ag without such an option read all but hidden files: `.env` is not among them); a searcher
 * naming no path reads its working directory (`.` and `**`). Null when the program, as its
 * options say, does not read directories whole (`grep KEY .env`, `cp a b`): its paths are read
 * as they are.
 */
export function recursiveReads(program: string, words: ReturnType<typeof parsed>, paths: readonly string[]): string[] | null {
  if (!Object.hasOwn(RECURSIVE, program)) return null;
  const options = RECURSIVE[program];
  // GNU grep's `-d recurse` is its `-r`.
  const recursive =
    options.length === 0 ||
    words.has(...options) ||
    (options === GREP_RECURSIVE && words.values('-d', '--directories').includes('recurse'));
  if (!recursive) return null;
  const read = paths.length === 0 && SEARCHERS.has(program) ? ['.'] : paths;
  const hidden = !Object.hasOwn(HIDDEN_OPTIONS, program) || words.has(...HIDDEN_OPTIONS[program]);
  return read.flatMap((path) => [path, filesUnder(path, hidden)]);
}
