import { z } from 'zod';
import type { CheckRun } from './evidence.js';
import { pathGlobListSchema } from './path-globs.js';

const name = z.string().trim().min(1).max(200);

const APP_HINT =
  'The GitHub App that must report the check: its slug (as in github.com/apps/<slug>, e.g. github-actions) or its numeric id (e.g. 15368).';

/** A GitHub App's slug, compared in lower case as GitHub writes slugs. */
const appSlug = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, APP_HINT)
  .toLowerCase();

const PATHS_HINT =
  'Globs (gitignore-style, as in `rules`): the check is required only when the change touches one of these paths; required too when the files are unknown.';

const OBJECT_HINT =
  'An object entry needs `app` (the GitHub App that must report the check), `paths` (globs: required only when the change touches them), or both; a check any source reports, always required, is its plain name.';

/**
 * A `required_checks` entry (docs/release-gate.md, "Checks pinned to their source" and "Conditional checks"): a check
 * run name, which any source may report, or an object with `app`, which only that GitHub App's check run satisfies
 * (GitHub's "expected source" of branch protection), and/or `paths`, which makes the check required only for a change
 * touching them. One schema serves the REST body and `.github/shipgate.yml`.
 */
export const requiredCheckEntrySchema = z
  .union(
    [
      name,
      z
        .object({
          name,
          app: z.union([appSlug, z.number().int().positive()], { error: APP_HINT }).optional().meta({ description: APP_HINT }),
          paths: pathGlobListSchema.min(1).optional().meta({ description: PATHS_HINT }),
        })
        .strict()
        .refine((entry) => entry.app !== undefined || entry.paths !== undefined, OBJECT_HINT)
        .meta({ id: 'RequiredCheckObject' }),
    ],
    { error: 'A check run name, or {name, app}, {name, paths} or {name, app, paths}.' },
  )
  .meta({
    id: 'RequiredCheckEntry',
    description:
      'A check run name (reported by any source), or an object: `{name, app}`: only a check run of that name reported by that GitHub App (slug such as `github-actions`, or numeric id) counts; `{name, paths}`: required only when the change touches one of the globs (or its files are unknown); `{name, app, paths}`: both.',
  });

export type RequiredCheckEntry = z.output<typeof requiredCheckEntrySchema>;

/** The check run name an entry requires. */
export function checkEntryName(entry: RequiredCheckEntry): string {
  return typeof entry === 'string' ? entry : entry.name;
}

/** The App an entry pins its check to, as written in the gate (slug or id); null for a plain name (any source). */
export function checkEntryApp(entry: RequiredCheckEntry): string | number | null {
  return typeof entry === 'string' ? null : (entry.app ?? null);
}

/** The globs that make an entry conditional; null for a check required on every change. */
export function checkEntryPaths(entry: RequiredCheckEntry): readonly string[] | null {
  return typeof entry === 'string' ? null : (entry.paths ?? null);
}

/** A `required_checks` list: at most 100 entries, names unique. */
export const requiredCheckListSchema = z
  .array(requiredCheckEntrySchema)
  .max(100)
  .refine((list) => new Set(list.map(checkEntryName)).size === list.length, 'Names must be unique.');

/**
 * Whether GitHub said the check run came from `app`: its slug or its id (either matches when both are known). A check
 * run recorded without its App (before shipgate recorded sources) never matches: its source is unknown.
 */
export function reportedBy(check: Pick<CheckRun, 'app'>, app: string | number): boolean {
  const wanted = String(app).toLowerCase();
  return (check.app?.slug != null && check.app.slug.toLowerCase() === wanted) || (check.app?.id != null && String(check.app.id) === wanted);
}

/**
 * Who reported a check run, as a blocker names it: the App's slug, else its id, else that nobody is known; `quote`
 * writes the slug or id (a code span; the App's report quotes it as text instead).
 */
export function checkRunSource(check: Pick<CheckRun, 'app'>, quote = (name: string) => `\`${name}\``): string {
  if (check.app?.slug) return quote(check.app.slug);
  if (check.app?.id != null) return `the App with id ${quote(String(check.app.id))}`;
  return 'a source GitHub did not name';
}

/**
 * The check run that answers an entry: the newest of its name (the first of equally new ones) from any source for a
 * plain name, from the entry's App only for a pinned one; undefined when there is none.
 */
export function countedCheckRun(entry: RequiredCheckEntry, checkRuns: readonly CheckRun[]): CheckRun | undefined {
  const name = checkEntryName(entry);
  const app = checkEntryApp(entry);
  return checkRuns
    .filter((c) => c.name === name && (app === null || reportedBy(c, app)))
    .reduce<CheckRun | undefined>((best, c) => (!best || Date.parse(c.produced_at) > Date.parse(best.produced_at) ? c : best), undefined);
}
