import { httpGet } from './http-get.js';
import { readUpstream } from './read-upstream.js';
import { recordReleaseNotes } from './record-release-notes.js';
import { repoListChanges } from './repo-list-changes.js';
import { repoReadFile } from './repo-read-file.js';
import { submitReview } from './submit-review.js';
import type { Tool } from './tool.js';
import { writeReport } from './write-report.js';

/** The tool registry (docs/workflows.md, "Governed agent executions": tools); RuntimeDeps.tools replaces it (e.g. with extra tools). */
export const BUILT_IN_TOOLS: readonly Tool[] = [
  readUpstream,
  repoReadFile,
  repoListChanges,
  httpGet,
  writeReport,
  submitReview,
  recordReleaseNotes,
];
