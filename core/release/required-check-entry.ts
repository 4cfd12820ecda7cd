import { z } from 'zod';
import type { CheckRun } from './evidence.js';

const name = z.string().trim().min(1).max(200);

const APP_HINT =
  'The GitHub App that must report the check: its slug (as in github.com/apps/<slug>, e.g. github-actions) or its numeric id (e.g. 15368).';

/** A GitHub App's slug, compared in lower case as GitHub writes slugs. */
const appSlug = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, APP_HINT)
  .toLowerCase();

/**
 * A `required_checks` entry (docs/release-gate.md, "Checks pinned to their source"): a check run name, which any source
 * may report, or `{name, app}`, which only that GitHub App's check run satisfies (GitHub's "expected source" of branch
 * protection). One schema serves the REST body and `.github/shipgate.yml`.
 */
export const requiredCheckEntrySchema = z
  .union(
    [
      name,
      z
        .object({
          name,
          app: z.union([appSlug, z.number().int().positive()], { error: APP_HINT }).meta({ description: APP_HINT }),
        })
        .strict()
        .meta({ id: 'RequiredCheckObject' }),
    ],
    { error: 'A check run name, or {name, app} with the slug or numeric id of the GitHub App that must report it.' },
  )
  .meta({
    id: 'RequiredCheckEntry',
    description:
      'A check run name (reported by any source), or `{name, app}`: only a check run of that name reported by that GitHub App (slug such as `github-actions`, or numeric id) counts.',
  });

export type RequiredCheckEntry = z.output<typeof requiredCheckEntrySchema>;

/** The check run name an entry requires. */
export function checkEntryName(entry: RequiredCheckEntry): string {
  return typeof entry === 'string' ? entry : entry.name;
}

/** The App an entry pins its check to, as written in the gate (slug or id); null for a plain name (any source). */
export function checkEntryApp(entry: RequiredCheckEntry): string | number | null {
  return typeof entry === 'string' ? null : entry.app;
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

/** Who reported a check run, as a blocker names it: the App's slug, else its id, else that nobody is known. */
export function checkRunSource(check: Pick<CheckRun, 'app'>): string {
  if (check.app?.slug) return `\`${check.app.slug}\``;
  if (check.app?.id != null) return `the App with id \`${check.app.id}\``;
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
