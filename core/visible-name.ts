import type { z } from 'zod';

/**
 * Characters that hide or reorder what a name shows: controls, bidirectional formatting (a
 * right-to-left override makes `lanoisivorp` read as `provisional`), and zero-width spaces and joiners
 * of words (U+200B, U+2060, U+FEFF) that make two different names look the same. The zero-width
 * joiner and non-joiner (U+200C, U+200D) stay allowed: scripts and emoji need them.
 */
const HIDDEN_CHARACTER = /[\p{Cc}\u061C\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/u;

export const HIDDEN_CHARACTER_MESSAGE =
  'A name may not hold control, bidirectional formatting or zero-width space characters: they hide or reorder what it shows.';

/**
 * A name people read where shipgate shows it (a PR comment, a check run, the studio) must show what it
 * is (docs/api.md, "HTTP conventions"). Refined, not transformed: a name is refused, never silently changed.
 */
export function visibleName<S extends z.ZodString>(schema: S): S {
  return schema.refine((name) => !HIDDEN_CHARACTER.test(name), HIDDEN_CHARACTER_MESSAGE) as unknown as S;
}
