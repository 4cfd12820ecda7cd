import { isGlobPattern } from '../glob-overlap.js';

/**
 * A line that makes bash's globs name hidden files (`shopt -s dotglob`, or setting `GLOBIGNORE`),
 * or that may give rg options the line does not show (`RIPGREP_CONFIG_PATH`, `--hidden` there).
 */
const NAMES_HIDDEN = /dotglob|GLOBIGNORE|RIPGREP_CONFIG_PATH/;

/**
 * A glob segment read so that a wildcard first may name a hidden file, as bash's `dotglob` and
 * find's `-name` read it: `*.env` names `.env` and `.x.env` (its star taking the `.`, or nothing
 * before the written `.`), `?nv` names `.nv`, `[.e]nv` `.nv`; glob-overlap.ts reads a pattern's
 * wildcard first as naming no hidden file. A `**` segment is left as it is.
 */
export function hiddenToo(segment: string): string {
  if (segment === '**' || !/^[*?[]/.test(segment)) return segment;
  if (segment[0] === '?') return `{${segment},.${segment.slice(1)}}`;
  if (segment[0] === '[') return `{.,}${segment}`;
  const rest = segment.slice(1);
  return rest === '' ? '{.,}*' : `{${segment},.${segment},${rest}}`;
}

/**
 * A shell line's paths with each glob segment that starts with a star, `?` or `[…]` also read as
 * naming hidden files (hiddenToo), where the line lets them: then `cat *` reads `.env`
 * (docs/agent-hooks.md, "Shell commands and files"). Otherwise as written.
 */
export function hiddenFileGlobs(line: string, paths: string[]): string[] {
  return NAMES_HIDDEN.test(line) ? globsNamingHidden(paths) : paths;
}

/** Paths whose glob segments also name hidden files (hiddenToo); with `whole`, only a segment that is a star alone (`*`). */
export const globsNamingHidden = (paths: string[], whole = false): string[] =>
  paths.map((path) =>
    isGlobPattern(path)
      ? path
          .split('/')
          .map((segment) => (whole && segment !== '*' ? segment : hiddenToo(segment)))
          .join('/')
      : path,
  );
