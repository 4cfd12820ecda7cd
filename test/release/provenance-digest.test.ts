import { canonicalDigest } from '../../core/canonical-json.js';
import { evaluateDecision } from '../../core/release/evaluate-decision.js';
import { provenanceDigest } from '../../core/release/provenance-digest.js';
import type { Provenance } from '../../core/release/snapshot.js';
import { check, evidence, gate, NOW, reviewedWorkflow, upload } from './support/release-fixtures.js';

const workflow = reviewedWorkflow();
const strict = gate({ required_checks: ['ci/test'], required_evidence: ['sbom'], require_reviewed_release: true });

function addressed(checks = [check('ci/test')], workflows = [workflow]) {
  const e = evidence(checks, [upload('sbom')]);
  const provenance: Provenance = { gate: { version: 1, digest: 'd'.repeat(64) }, check_runs: e.checkRuns, evidence: e.uploads, workflows };
  return { provenance, blockers: evaluateDecision(strict, e, workflows, NOW).blockers };
}

describe('provenanceDigest', () => {
  it('is the canonical digest, asked once or again, whatever the key order of the value', () => {
    const value = addressed();
    expect(provenanceDigest(value)).toBe(canonicalDigest(value));
    expect(provenanceDigest(value)).toBe(canonicalDigest(value));
    const { workflows, ...rest } = value.provenance;
    const reordered = { blockers: value.blockers, provenance: { workflows, ...rest } };
    expect(provenanceDigest(reordered)).toBe(canonicalDigest(value));
  });

  it('never answers a remembered digest for changed evidence or a changed outcome', () => {
    const before = addressed();
    const first = provenanceDigest(before);
    const failed = addressed([check('ci/test', { conclusion: 'failure' })]);
    expect(provenanceDigest(failed)).toBe(canonicalDigest(failed));
    expect(provenanceDigest(failed)).not.toBe(first);
    const invalid = { ...workflow, executions: [{ ...workflow.executions[0], certificate_valid: false }, workflow.executions[1]] };
    const tampered = addressed([check('ci/test')], [invalid]);
    expect(provenanceDigest(tampered)).toBe(canonicalDigest(tampered));
    expect(provenanceDigest(tampered)).not.toBe(first);
    expect(provenanceDigest(before)).toBe(first);
  });

  it("per commit, is the canonical digest of what is asked, however its last poll's value was changed since", () => {
    const commit = { repoRoot: 'acme/digest', sha: 'f'.repeat(40) };
    const before = addressed();
    const first = provenanceDigest(before, commit);
    expect(first).toBe(canonicalDigest(before));
    expect(provenanceDigest(addressed(), commit)).toBe(first);
    before.provenance.check_runs[0].conclusion = 'failure';
    expect(provenanceDigest(before, commit)).toBe(canonicalDigest(before));
    expect(provenanceDigest(before, commit)).not.toBe(first);
    const failed = addressed([check('ci/test', { conclusion: 'failure' })]);
    expect(provenanceDigest(failed, commit)).toBe(canonicalDigest(failed));
    expect(provenanceDigest(addressed(), commit)).toBe(first);
  });
});
