/** A merge queue group's branch: `gh-readonly-queue/<base>/pr-<N>-<sha>`; the base may contain slashes. */
const QUEUE_REF = /^(?:refs\/heads\/)?gh-readonly-queue\/(.+)\/pr-(\d+)-([0-9a-f]{40})$/i;

export interface MergeQueueRef {
  base: string;
  /** The pull request the group was built for (the last one when GitHub batches several). */
  number: number;
  sha: string;
}

/** The pull request a merge group was made for, or null when the ref is not a merge queue branch. */
export function parseMergeQueueRef(ref: string): MergeQueueRef | null {
  const found = QUEUE_REF.exec(ref.trim());
  if (!found) return null;
  const number = Number(found[2]);
  if (!Number.isSafeInteger(number) || number <= 0) return null;
  return { base: found[1], number, sha: found[3].toLowerCase() };
}
