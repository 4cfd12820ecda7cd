import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DECISION, EVIDENCE, failure, useHostileShipgate } from './support/hostile-shipgate.js';
import { COMMIT, decision, evidenceRecord, json, REPO } from './support/fake-shipgate.js';

// The bundled Action against a fake "shipgate" answering an evidence upload with a record it never
// would (a black-box probe's finding: any record of the right shape passed as "recorded"): only a
// record for the repository and commit the Action uploaded for passes; anything else fails the
// step with one line, before the decision is asked for, and sets no output and no job summary.
const hostile = useHostileShipgate();

const { gate } = hostile;
const upload = (extra: Record<string, string> = {}) => gate({ 'evidence-name': 'tests', ...extra });
const OTHER = 'f'.repeat(40);

describe('an upload answered with a record of another commit or repository fails the step, with no outputs', () => {
  it('a record for the repository and commit uploaded for passes, the repository compared without regard to case (the control)', async () => {
    hostile.fake.answers[EVIDENCE] = json(evidenceRecord(), 201);
    hostile.fake.answers[DECISION] = json(decision());
    const run = await upload({ repository: 'Acme/API' });
    expect([run.code, run.outputs.decision, failure(run)]).toEqual([0, 'SHIP', []]);
    expect(run.log).toContain(`Recorded evidence "tests" (passed) for Acme/API@${COMMIT}.`);
  });

  it.each([
    ['another repository', { repo_root: 'evil/other', commit_sha: OTHER }, 'evil/other@ffffffffffff'],
    ['another commit', { commit_sha: OTHER }, `${REPO}@ffffffffffff`],
    ['another repository, the same commit', { repo_root: 'acme/other' }, 'acme/other@0123456789ab'],
  ])('%s: refused, the decision never asked for', async (_name, changes, answered) => {
    hostile.fake.answers[EVIDENCE] = json(evidenceRecord(changes), 201);
    hostile.fake.answers[DECISION] = json(decision());
    for (const decide of ['true', 'false']) {
      hostile.fake.requests = [];
      const run = await upload({ decide });
      expect([run.code, run.outputs, run.summary]).toEqual([1, {}, '']);
      expect(failure(run)).toEqual([`::error::shipgate answered an evidence record for ${answered}, not ${REPO}@0123456789ab: refused.`]);
      expect(run.log).not.toContain('Recorded evidence');
      expect(hostile.fake.requests).toEqual([EVIDENCE]);
    }
  });

  it('a record lacking repo_root and commit_sha, or with a commit_sha that is not one', async () => {
    hostile.fake.answers[EVIDENCE] = json(evidenceRecord({ repo_root: undefined, commit_sha: undefined }), 201);
    const lacking = await upload();
    expect([lacking.code, lacking.outputs, lacking.summary]).toEqual([1, {}, '']);
    expect(failure(lacking)).toEqual([
      `::error::shipgate answered something that is not an evidence record to record evidence "tests" for ${REPO}: ` +
        'repo_root is missing; commit_sha is missing.',
    ]);
    hostile.fake.answers[EVIDENCE] = json(evidenceRecord({ repo_root: 7, commit_sha: 'HEAD' }), 201);
    const wrong = await upload();
    expect([wrong.code, wrong.outputs]).toEqual([1, {}]);
    expect(failure(wrong)).toEqual([
      expect.stringContaining('repo_root is 7, not a string; commit_sha is "HEAD", not a 40-character commit SHA.'),
    ]);
  });

  it('the digest-only upload after shipgate declined to read the document is checked alike', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'action-evidence-answer-')), 'report.bin');
    fs.writeFileSync(file, 'not a document shipgate reads');
    let n = 0;
    hostile.fake.answers[EVIDENCE] = (req, res) =>
      ++n === 1
        ? json({ detail: [{ loc: ['body', 'content'], msg: 'Not a format shipgate reads.', type: 'value_error' }] }, 422)(req, res)
        : json(evidenceRecord({ commit_sha: OTHER }), 201)(req, res);
    const run = await upload({ 'evidence-file': file, decide: 'false' });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect([n, run.code, run.outputs, run.summary]).toEqual([2, 1, {}, '']);
    expect(failure(run)).toEqual([
      `::error::shipgate answered an evidence record for ${REPO}@ffffffffffff, not ${REPO}@0123456789ab: refused.`,
    ]);
  });
  it('a record of another name, or saying passed for a failed upload, is refused; a name shipgate trimmed passes', async () => {
    hostile.fake.answers[DECISION] = json(decision());
    hostile.fake.answers[EVIDENCE] = json(evidenceRecord({ status: 'passed' }), 201);
    const flipped = await upload({ 'evidence-status': 'failed' });
    expect([flipped.code, flipped.outputs, flipped.summary]).toEqual([1, {}, '']);
    expect(failure(flipped)).toEqual([
      `::error::shipgate answered a record of evidence "tests" (passed) for ${REPO}@0123456789ab, not of the "tests" (failed) uploaded: refused.`,
    ]);
    hostile.fake.answers[EVIDENCE] = json(evidenceRecord({ name: 'other' }), 201);
    const renamed = await upload();
    expect([renamed.code, failure(renamed)]).toEqual([1, [expect.stringContaining('record of evidence "other" (passed)')]]);
    hostile.fake.answers[EVIDENCE] = json(evidenceRecord(), 201);
    const trimmed = await upload({ 'evidence-name': ' tests ' });
    expect([trimmed.code, trimmed.outputs.decision]).toEqual([0, 'SHIP']);
  });
});
