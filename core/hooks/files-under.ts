import { trimSlashes } from './trim-slashes.js';

/**
 * Every file under `path`, as a glob (`src/` gives `src/**`, `.` gives `**`, `/` gives `/**`);
 * without hidden ones, `/*` after it (glob-overlap.ts reads a star first in a name as naming no
 * hidden file): what a recursive reader (shell-recursive-readers.ts) and a search tool
 * (searched-files.ts) read of a directory.
 */
export function filesUnder(path: string, hidden: boolean): string {
  const dir = trimSlashes(path);
  const all = dir === '.' || path === '' ? '**' : `${dir}/**`;
  return hidden ? all : `${all}/*`;
}
