import { isGlobPattern } from '../glob-overlap.js';

/**
 * A line that makes bash's globs name hidden files (`shopt -s dotglob`, or setting `GLOBIGNORE`),
 * or that may give rg options the line does not show (`RIPGREP_CONFIG_PATH`, `--hidden` there).
 */
const NAMES_HIDDEN = /dotglob|GLOBIGNORE|RIPGREP_CONFIG_PATH/;

/**
 * A shell line's paths with each glob segment that starts with a star, `?` or `[…]` also read
 * with a `.` first, where the line lets them name hidden files: then `cat *` reads `.env`
 * (docs/agent-hooks.md, "Shell commands and files"). Otherwise as written.
 */
export function hiddenFileGlobs(line: string, paths: string[]): string[] {
  if (!NAMES_HIDDEN.test(line)) return paths;
  return paths.map((path) =>
    isGlobPattern(path)
      ? path
          .split('/')
          .map((segment) => (/^[*?[]/.test(segment) ? `{.,}${segment}` : segment))
          .join('/')
      : path,
  );
}
