/** Whether `text` matches `glob`, where `*` matches any run of characters (none included). Linear in practice: no regex. */
function globMatches(glob: string, text: string): boolean {
  const [first, ...rest] = glob.split('*');
  if (rest.length === 0) return glob === text;
  if (!text.startsWith(first)) return false;
  const last = rest.pop()!;
  let at = first.length;
  for (const part of rest) {
    const found = text.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return text.length - last.length >= at && text.endsWith(last);
}

/**
 * Whether a token's `job_workflow_ref` is the workflow an `evidence_sources` pattern names
 * (core/release/evidence-sources.ts): the workflow file exactly (`owner/repo` case-insensitively),
 * the ref by the pattern's glob.
 */
export function matchesEvidenceSource(pattern: string, jobWorkflowRef: string | null): boolean {
  if (!jobWorkflowRef) return false;
  const [patternFile, patternRef] = splitAt(pattern);
  const [file, ref] = splitAt(jobWorkflowRef);
  if (ref === null || patternRef === null) return false;
  const slash = (path: string) => path.indexOf('/', path.indexOf('/') + 1);
  const sameRepository = patternFile.slice(0, slash(patternFile)).toLowerCase() === file.slice(0, slash(file)).toLowerCase();
  return sameRepository && patternFile.slice(slash(patternFile)) === file.slice(slash(file)) && globMatches(patternRef, ref);
}

function splitAt(ref: string): [string, string | null] {
  const at = ref.indexOf('@');
  return at < 0 ? [ref, null] : [ref.slice(0, at), ref.slice(at + 1)];
}
