import type { ProgramAccess } from './program-access.js';

/**
 * perl's and ruby's switches, as they read them: `script` gives the program (`-e CODE`), `word`
 * takes the rest of its word or else the next one (`-Ilib`, `-I lib`), `rest` only the rest of
 * its word (`-F:`, `-x`); `-i` takes the rest of its word as its backup suffix (`-i.bak`, and
 * `-pie` is `-p -i` with the suffix `e`).
 */
const SWITCHES: Record<string, { script: string; word: string; rest: string }> = {
  perl: { script: 'eE', word: 'IMm', rest: 'dDFx' },
  ruby: { script: 'e', word: 'IrCE', rest: 'FxWTK' },
};

/**
 * The files `perl -i` and `ruby -i` edit in place (docs/agent-hooks.md, "Shell commands and
 * files"): they read and write their file operands, those after the program (`-e CODE`, else the
 * first operand, a script file). Without `-i` what a script opens is not followed.
 */
export const inPlaceAccess: ProgramAccess = (program, args, access) => {
  const switches = SWITCHES[program];
  let inPlace = false;
  let script = false;
  let i = 0;
  // Switches end at the first word that is none (`-` is a script read from standard input) or after `--`.
  for (; i < args.length && args[i].startsWith('-') && args[i] !== '-'; i++) {
    if (args[i] === '--') {
      i++;
      break;
    }
    const word = args[i];
    if (word.startsWith('--')) continue;
    for (let k = 1; k < word.length; k++) {
      const letter = word[k];
      if (letter === 'i') inPlace = true;
      else if (switches.script.includes(letter) || switches.word.includes(letter)) {
        script ||= switches.script.includes(letter);
        if (k === word.length - 1) i++;
      } else if (!switches.rest.includes(letter)) continue;
      break;
    }
  }
  if (!inPlace) return;
  const files = args.slice(script ? i : i + 1).filter((f) => f !== '-');
  access.reads.push(...files);
  access.writes.push(...files);
};
