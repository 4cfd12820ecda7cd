import { looksLikePath } from './inline-programs.js';

/**
 * The words of a program's arguments that look like paths (inline-programs.ts's `looksLikePath`):
 * its operands, and the values of its `--name=VALUE` options. What a program the shell reader does
 * not know, or a runner's own options (`dotenv -e .env --`), may read (shell-file-access.ts's `handed`).
 */
export const handedPaths = (args: readonly string[]): string[] =>
  args.map((arg) => (arg.startsWith('-') ? arg.slice(arg.indexOf('=') + 1 || arg.length) : arg)).filter(looksLikePath);
