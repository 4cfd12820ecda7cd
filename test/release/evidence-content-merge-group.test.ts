import { randomUUID } from 'node:crypto';
import { evaluateMergeGroup } from '../../core/github/merge-group-evaluation.js';
import type { EvidenceSummary } from '../../core/evidence-content/evidence-summary.js';
import { NO_PULL_REQUEST } from '../../core/release/agent-change-findings.js';
import type { CommitEvidence } from '../../core/release/evidence.js';
import { evidence, gate, NOW, upload } from './support/release-fixtures.js';

// A merge group is judged on each pull request head's uploads (docs/github-app.md): their documents too
// (docs/release-gate.md, "Evidence read by content").

const failing: EvidenceSummary = { format: 'junit', total: 5, failed: 2, errored: 0, skipped: 0, failing: ['a', 'b'] };

function headEvidence(summary: EvidenceSummary): CommitEvidence {
  const tests = upload('tests', { format: 'junit', summary_digest: 'sha256:' + '1'.repeat(64) });
  return { ...evidence([], [tests]), contents: { tests: { evidence_id: randomUUID(), format: 'junit', summary, document: null } } };
}

describe('merge group evaluation with evidence documents', () => {
  const head = (summary: EvidenceSummary) => ({
    number: 7,
    sha: 'a'.repeat(40),
    evidence: headEvidence(summary),
    workflows: [],
    authorship: NO_PULL_REQUEST,
  });

  it.each([['tests'], [{ name: 'tests', format: 'junit', rules: { max_failed: 0 } }]])(
    'a head whose report holds failures blocks the group (entry %j)',
    (entry) => {
      const g = gate({ required_evidence: [entry] } as never);
      const result = evaluateMergeGroup(g, evidence(), [head(failing)], null, NOW);
      expect(result.blockers.map((b) => `${b.code} ${b.component}`)).toEqual(['evidence_content_failed evidence:tests:max_failed']);
      expect(result.blockers[0].reason).toMatch(/^PR #7: .*2 of 5 tests failed: a, b/);
      expect(evaluateMergeGroup(g, evidence(), [head({ ...failing, failed: 0, failing: [] })], null, NOW).decision).toBe('SHIP');
    },
  );
});
