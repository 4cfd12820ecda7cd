import { filesUnder } from './files-under.js';

/** Tools that read the content of the files they search, not only their names (Claude's Grep, Copilot's grep, Gemini's search_file_content). */
const CONTENT_SEARCHES = new Set(['Grep', 'grep', 'search_file_content']);

/**
 * The files a search tool reads under `dir`, as patterns (docs/agent-hooks.md, "Shell commands
 * and files"): ripgrep, behind each of these tools, reads the files under its path that globs
 * name, or all of them. A star does not name a hidden file (`.env`), as a shell's does not:
 * ripgrep leaves out what .gitignore lists, as nearly every repository's does its secrets, and
 * `deny read .env*` refusing every search of the repository would leave the rule unusable; a
 * glob that writes the `.` names them. Claude's Grep splits its `glob` at whitespace and commas
 * outside braces, as it passes each to `rg --glob`; a glob without `/` matches a name in any
 * directory; a `!` glob only leaves files out, so it narrows nothing. A tool that lists names
 * (Glob, LS) reads no file: none.
 */
export function searchedFiles(tool: string, dir: string, globs: string | undefined): string[] {
  if (!CONTENT_SEARCHES.has(tool)) return [];
  const named = (globs ?? '')
    .split(/\s+/)
    .flatMap((part) => (part.includes('{') && part.includes('}') ? [part] : part.split(',')))
    .filter((glob) => glob !== '' && !glob.startsWith('!'));
  if (named.length === 0) return [filesUnder(dir, false)];
  return named.map((glob) => (glob.includes('/') ? `${dir}/${glob.replace(/^\/+/, '')}` : `${dir}/**/${glob}`));
}
