import type { ProvenanceSummary } from './evidence-summary.js';
import type { ProvenanceRules } from './evidence-rules.js';
import type { RuleResult } from './judge-evidence-content.js';
import { keyNames } from './provenance-keys.js';

/** Commits the provenance names: `gitCommit` digests of resolved dependencies (the source) and of subjects. */
export function commitsNamed(summary: ProvenanceSummary): string[] {
  const subjects = summary.subjects.map((s) => s.digest.gitCommit).filter((c): c is string => typeof c === 'string');
  return [...new Set([...summary.source_commits, ...subjects].map((c) => c.toLowerCase()))];
}

/** Provenance: allowed builders, the released commit, and a signature by one of the gate's keys. */
export function judgeProvenance(summary: ProvenanceSummary, rules: ProvenanceRules, commitSha: string): RuleResult[] {
  const results: RuleResult[] = [];
  if (rules.builder_ids) {
    results.push({
      rule: 'builder_ids',
      passed: rules.builder_ids.includes(summary.builder_id),
      detail: `Built by ${summary.builder_id}; the gate allows ${rules.builder_ids.join(', ')}.`,
      remediation:
        'Build the release on an allowed builder and upload its provenance; if this builder is trusted, add its id to `builder_ids`.',
    });
  }
  if (rules.commit_must_match) {
    const commits = commitsNamed(summary);
    const wanted = commitSha.toLowerCase();
    results.push({
      rule: 'commit_must_match',
      passed: commits.includes(wanted),
      detail:
        commits.length === 0
          ? `The provenance names no commit (no gitCommit digest); the release is ${wanted}.`
          : `The provenance names ${commits.join(', ')}; the release is ${wanted}.`,
      remediation: 'Upload the provenance of the build of this commit (a stale or another branch’s provenance does not count).',
    });
  }
  if (rules.keys.length > 0) {
    const wanted = rules.keys.flatMap((key) => (typeof key === 'string' ? [key] : keyNames(key)));
    const verified = summary.verified_keys.filter((k) => wanted.includes(k));
    const detail = verified.length
      ? `Signed by ${verified.join(', ')}.`
      : summary.envelope
        ? `None of the envelope’s ${summary.signatures} signature(s) verified with a key the gate names.`
        : 'The provenance is a bare statement: it carries no signature.';
    results.push({
      rule: 'keys',
      passed: verified.length > 0,
      detail,
      remediation:
        'Upload the DSSE envelope signed by one of the gate’s keys. A key added to the gate after the upload needs the provenance uploaded again.',
    });
  }
  return results;
}
