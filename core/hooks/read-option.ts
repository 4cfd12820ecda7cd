/** One option at `words[i]` and where the next one starts; `value` when it takes one. */
export interface ReadOption {
  next: number;
  name: string;
  value?: string;
}

/**
 * The option at `words[i]`, getopt's way: `--name=value`; `--name value` and `-x value` for the
 * options in `valued`; in a cluster (`-lc`, `-tDIR`) the first letter in `valued` takes the rest
 * of the word, or the next word when it ends the cluster. Reading `-eKEY` as a flag took the file
 * after it for the pattern.
 */
export function readOption(words: readonly string[], i: number, valued: ReadonlySet<string>): ReadOption {
  const word = words[i];
  if (word.startsWith('--')) {
    const eq = word.indexOf('=');
    if (eq > 0) return { next: i + 1, name: word.slice(0, eq), value: word.slice(eq + 1) };
    return valued.has(word) ? { next: i + 2, name: word, value: words[i + 1] } : { next: i + 1, name: word };
  }
  for (let k = 1; k < word.length; k++) {
    const name = `-${word[k]}`;
    if (!valued.has(name)) continue;
    return k + 1 < word.length ? { next: i + 1, name, value: word.slice(k + 1) } : { next: i + 2, name, value: words[i + 1] };
  }
  return { next: i + 1, name: word };
}
