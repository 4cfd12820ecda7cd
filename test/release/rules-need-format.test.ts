import { formatGateFileProblem, readGateFileText } from '../../core/github/gate-file-problems.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// A required_evidence entry with rules but no format (docs/release-gate.md, "Evidence read by
// content"): the answer says what to add, not zod's bare "Unrecognized key".
const NEEDS_FORMAT = '`rules` need a `format`: add one of junit, sarif, cyclonedx, spdx, provenance, the format whose rules they are.';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

it('PUT /releases/gates answers 422 at the entry, saying rules need a format and listing the formats', async () => {
  const res = await t.request
    .put('/api/v1/releases/gates/acme/needs-format')
    .set(t.admin.auth)
    .send({ required_evidence: ['sbom', { name: 'tests', rules: { max_failed: 0 } }] });
  expect(res.status).toBe(422);
  expect(res.body.detail).toEqual([{ loc: ['body', 'required_evidence', 1], msg: NEEDS_FORMAT, type: 'unrecognized_keys' }]);
  // Another unknown key beside rules is still named; an entry without rules keeps zod's words.
  const both = await t.request
    .put('/api/v1/releases/gates/acme/needs-format')
    .set(t.admin.auth)
    .send({
      required_evidence: [
        { name: 'tests', rules: {}, owner: 'qa' },
        { name: 'sbom', owner: 'qa' },
      ],
    });
  expect(both.body.detail.map((issue: { msg: string }) => issue.msg)).toEqual([
    `${NEEDS_FORMAT} Unrecognized key: "owner".`,
    'Unrecognized key: "owner"',
  ]);
});

it('.github/shipgate.yml: the same words become a problem of the file, at the entry’s line', () => {
  const reading = readGateFileText('required_checks: [ci]\nrequired_evidence:\n  - name: tests\n    rules:\n      max_failed: 0\n');
  expect('problems' in reading && reading.problems.map(formatGateFileProblem)).toEqual([
    `.github/shipgate.yml:3: required_evidence.0: ${NEEDS_FORMAT}`,
  ]);
});
