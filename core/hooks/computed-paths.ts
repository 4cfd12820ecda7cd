/**
 * Paths a shell line computes as it runs (docs/agent-hooks.md, "Shell commands and files"): a
 * parameter (`$f`, `${f}`, `$HOME`), a command's output (`$(…)`, backticks; an unquoted `$(`
 * leaves its word ending in `$`, shell-words.ts), arithmetic, `find -exec`'s `{}` and the words
 * `xargs` appends. What they hold is not in the line, so a security probe read `.env` past
 * `read: ".env*"` with `f=.env; cat $f` and `cat $(printf .%s env)`, and wrote a workflow past
 * `write: ".github/workflows/**"` with `cd $D && echo x > ci.yml`. Such a path is read as every
 * path it could be: anything before its last expansion may hold `/` and `..`, so only what
 * follows narrows it (`"$HOME/notes.txt"` is any `notes.txt`; `$f` is any file, hidden or not).
 */

/**
 * The most computed paths a line may hold: each is two globs compared with every rule, and 8,000
 * of them (`cat $x/a1 $x/a2 …`) took half a second of the event loop per call. Past it the call is
 * refused (a file tool writes such content).
 */
export const MAX_COMPUTED_PATHS = 256;

/** Where the expansion starting at `i` ends, or -1 when none starts there. */
function expansionEnd(path: string, i: number): number {
  const c = path[i];
  if (c === '`') {
    const close = path.indexOf('`', i + 1);
    return close < 0 ? path.length : close + 1;
  }
  if (c === '{' && path[i + 1] === '}') return i + 2;
  if (c !== '$') return -1;
  const next = path[i + 1];
  if (next === undefined) return path.length;
  if (next === '{' || next === '(') {
    const open = next;
    const close = open === '{' ? '}' : ')';
    let depth = 0;
    for (let k = i + 1; k < path.length; k++) {
      if (path[k] === open) depth++;
      else if (path[k] === close && --depth === 0) return k + 1;
    }
    return path.length;
  }
  if (/[@*#?!$0-9-]/.test(next)) return i + 2;
  const name = /^[A-Za-z_]\w*/.exec(path.slice(i + 1, i + 257));
  return name ? i + 1 + name[0].length : -1;
}

/** Where the path's last expansion ends, or -1 when it holds none. */
function lastExpansionEnd(path: string): number {
  let last = -1;
  for (let i = 0; i < path.length; i++) {
    const end = expansionEnd(path, i);
    if (end < 0) continue;
    last = end;
    i = end - 1;
  }
  return last;
}

/** Whether the shell computes the path when the line runs. */
export const isComputedPath = (path: string): boolean => lastExpansionEnd(path) >= 0;

/**
 * The globs naming every path a computed one could be, under the working directory and anywhere
 * outside it: `**` then what follows its last expansion (`$D/ci.yml` is `**` + `/ci.yml`, `${f}nv`
 * any name ending in `nv`, hidden ones too); a `..` after it leaves only what follows that.
 */
export function computedPathGlobs(path: string): string[] {
  const after = path.slice(lastExpansionEnd(path));
  const [suffix, ...below] = after.split('/');
  const up = below.lastIndexOf('..');
  const rest = (up < 0 ? below : below.slice(up + 1)).filter((s) => s !== '' && s !== '.');
  // A suffix narrows the expansion's last name; with none, `**` stands for the whole of it.
  const names = up < 0 && suffix !== '' ? [`{.,}*${suffix}`, ...rest] : rest;
  const tail = names.length > 0 ? names.join('/') : '{.,}*';
  return [`**/${tail}`, `/**/${tail}`];
}
