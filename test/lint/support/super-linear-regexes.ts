import { check } from 'recheck';
import type { RegexLiteral } from './regex-literals.js';

/**
 * recheck's limits on matching time are off, so a verdict depends on the regex alone and not on
 * how busy the machine is: its fuzzer counts the characters its matcher reads instead (recheck's
 * `attackLimit`, `incubationLimit`). Only a whole check has a deadline; one that reaches it is
 * reported as not checked, never as safe.
 */
const RECHECK_PARAMS = { attackTimeout: null, incubationTimeout: null, timeout: 60_000 };

/**
 * The regexes among `regexes` that recheck finds super-linear (or cannot check), one line per
 * place: `file:line /pattern/flags — complexity, attack string <a JavaScript expression>`. Each
 * distinct pattern is checked once, one at a time (checks running together compete for the CPU).
 */
export async function superLinearRegexes(regexes: RegexLiteral[]): Promise<string[]> {
  const places = new Map<string, RegexLiteral[]>();
  for (const regex of regexes) {
    const key = `/${regex.source}/${regex.flags}`;
    places.set(key, [...(places.get(key) ?? []), regex]);
  }
  const findings: string[] = [];
  for (const [key, [first, ...others]] of places) {
    const diagnostics = await check(first.source, first.flags, RECHECK_PARAMS);
    if (diagnostics.status === 'safe') continue;
    const why =
      diagnostics.status === 'vulnerable'
        ? `${diagnostics.complexity.type}, attack string ${diagnostics.attack.pattern}`
        : `not checked: ${diagnostics.error.kind}${'message' in diagnostics.error ? ` (${diagnostics.error.message})` : ''}`;
    for (const place of [first, ...others]) findings.push(`${place.file}:${place.line} ${key} — ${why}`);
  }
  return findings;
}
