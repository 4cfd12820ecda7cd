import type { ChangedFilesSummary } from './rule-outcome.js';

/**
 * What the pull request changes, in one sentence (docs/release-gate.md, "Changed files"): the one
 * wording the check run's Rules section and the decision's `changed_files.text` use, so no client
 * keeps a copy.
 */
export function changedFilesText(files: ChangedFilesSummary): string {
  const count = files.count?.toLocaleString('en-US');
  switch (files.status) {
    case 'read':
      return `It changes ${count} file${files.count === 1 ? '' : 's'}.`;
    case 'file_limit':
      return `It changes ${count ?? 'more'} files, more than GitHub lists: rules that need its files cannot be met (see the blockers).`;
    case 'unreadable':
      return 'Its changed files could not be read from GitHub (see the blockers).';
    case 'not_read':
      return 'Its changed files were not read from GitHub.';
  }
}
