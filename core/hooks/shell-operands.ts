import { readOption } from './read-option.js';

/**
 * A command's words read getopt's way (docs/agent-hooks.md, "Shell commands and files"): its
 * operands (the words that are neither options nor an option's value; all after `--`), the values
 * its options were given, each with how many operands came before it (`tar -C DIR` moves where
 * the operands after it are read), and whether it names an option, each letter of a cluster apart
 * up to the one that takes a value (`-rn` names `-r`; `-er` gives `-e` the value `r`).
 */
export function parsed(args: readonly string[], valued: ReadonlySet<string>) {
  const files: string[] = [];
  const given: { name: string; value: string; at: number }[] = [];
  const named = new Set<string>();
  for (let i = 0; i < args.length;) {
    const word = args[i];
    if (word === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (!word.startsWith('-') || word === '-') {
      files.push(word);
      i++;
      continue;
    }
    const option = readOption(args, i, valued);
    if (option.value !== undefined) given.push({ name: option.name, value: option.value, at: files.length });
    if (word.startsWith('--')) named.add(option.name);
    else
      for (let k = 1; k < word.length; k++) {
        named.add(`-${word[k]}`);
        if (valued.has(`-${word[k]}`)) break;
      }
    i = option.next;
  }
  return {
    files,
    given,
    values: (...names: string[]) => given.filter((g) => names.includes(g.name)).map((g) => g.value),
    has: (...names: string[]) => names.some((name) => named.has(name)),
  };
}
