import type { CommitAuthorship } from './agent-change-findings.js';
import { touchedPaths } from './pull-request-files.js';

/**
 * What a decision knows of the paths a commit's change touches (docs/release-gate.md, "Conditional checks"): every
 * path, renames under both names, or why they are unknown, in sentences people read.
 */
export type ChangePaths = { known: true; paths: string[] } | { known: false; why: string };

/**
 * The paths from the stored facts of the commit's pull request (for a merge group's commit, its pull request's head),
 * never from GitHub: a commit no pull request names, a pull request not read yet or unreadable, or files GitHub did
 * not list in full, leave them unknown.
 */
export function changePaths(authorship: CommitAuthorship): ChangePaths {
  const { record } = authorship;
  if (!record) return { known: false, why: 'No open pull request or merge group names this commit.' };
  const files = record.facts?.files;
  if (files?.status === 'read') return { known: true, paths: touchedPaths(files.files) };
  const number = `Pull request #${record.number}`;
  if (files) return { known: false, why: files.reason ?? `GitHub did not list all the files of pull request #${record.number}.` };
  if (record.status === 'pending') return { known: false, why: `${number} is not read yet.` };
  if (record.status === 'unreadable')
    return { known: false, why: `${number} could not be read: ${record.reason ?? 'GitHub did not say why.'}` };
  return { known: false, why: `The files of pull request #${record.number} were not read.` };
}
