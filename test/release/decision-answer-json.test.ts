import { deepFreeze } from '../../core/deep-freeze.js';
import type { ReleaseDecision } from '../../core/release/decide-release.js';
import { decisionAnswerJson } from '../../core/release/decision-answer-json.js';
import { rememberable, sameJson } from '../../core/release/same-json.js';
import { RULE_HEADS, RULES_BENCH_GATE, ruleHeadFacts } from '../../bench/lib/seed-rule-heads.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { checkRun, putGate, sha } from '../support/release-api.js';

// The decision's body is served again while a commit's answer stays the same (core/release/decision-answer-json.ts):
// whatever it remembers, the text sent is always that of the answer asked about.
let n = 0;
function answer(fields: Partial<ReleaseDecision> = {}): ReleaseDecision {
  return {
    decision: 'NO_SHIP',
    repo_root: `acme/answer-${n}`,
    commit_sha: 'a'.repeat(40),
    blockers: [
      { code: 'required_check_missing', component: 'check:ci', reason: 'not run', remediation_suggestion: 'run it', waitable: true },
    ],
    explanation: [],
    evaluated_at: '2026-01-01T00:00:00.000Z',
    ...fields,
  } as unknown as ReleaseDecision;
}
const parsed = (body: Buffer) => JSON.parse(body.toString('utf8')) as Record<string, unknown>;

describe("the decision's JSON body", () => {
  beforeEach(() => n++);

  it('is the answer with decision_url, evaluated now, polled again or not', () => {
    expect(parsed(decisionAnswerJson(answer(), 'https://x/1'))).toEqual({ ...answer(), decision_url: 'https://x/1' });
    const later = answer({ evaluated_at: '2026-01-01T00:00:05.000Z' });
    expect(parsed(decisionAnswerJson(later, 'https://y/1'))).toEqual({ ...later, decision_url: 'https://y/1' });
  });

  it('is the new answer the moment anything in it changes', () => {
    decisionAnswerJson(answer(), 'u');
    const shipped = answer({ decision: 'SHIP', blockers: [] });
    expect(parsed(decisionAnswerJson(shipped, 'u'))).toMatchObject({ decision: 'SHIP', blockers: [] });
    const renamed = answer({ decision: 'SHIP', blockers: [], snapshot_status: 'attested' });
    expect(parsed(decisionAnswerJson(renamed, 'u')).snapshot_status).toBe('attested');
  });

  it('is not changed by what a caller does to an answer it was made from', () => {
    const first = answer();
    decisionAnswerJson(first, 'u');
    first.blockers[0].reason = 'changed in place';
    expect(parsed(decisionAnswerJson(first, 'u')).blockers).toEqual([expect.objectContaining({ reason: 'changed in place' })]);
    expect(parsed(decisionAnswerJson(answer(), 'u')).blockers).toEqual([expect.objectContaining({ reason: 'not run' })]);
  });
});

describe('sameJson', () => {
  it('is true only for the same JSON value, whatever the key order', () => {
    const value = { a: [1, 'x', null, { b: true }], c: { d: 'e' } };
    expect(sameJson({ c: { d: 'e' }, a: [1, 'x', null, { b: true }] }, rememberable(value))).toBe(true);
    for (const other of [{ ...value, a: [1, 'x', null] }, { ...value, c: { d: 'f' } }, { ...value, z: 1 }, { a: value.a }, [value]]) {
      expect(sameJson(other, rememberable(value))).toBe(false);
    }
  });

  it('never calls objects that are not plain data the same, even one it was given', () => {
    const when = new Date(0);
    expect(sameJson({ when }, rememberable({ when }))).toBe(false);
    expect(sameJson({ when: new Date(1) }, rememberable({ when }))).toBe(false);
  });

  it('says when frozen parts were equal without being the remembered ones', () => {
    const remembered = rememberable({ rules: deepFreeze([{ name: 'a' }]) });
    const met = { renewed: false };
    expect(sameJson({ rules: remembered.rules }, remembered, met)).toBe(true);
    expect(met.renewed).toBe(false);
    expect(sameJson({ rules: deepFreeze([{ name: 'a' }]) }, remembered, met)).toBe(true);
    expect(met.renewed).toBe(true);
  });
});

describe("the decision's JSON body over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is whole, with its length, polled again (the rules bench: 20 rules over 3,000 files, about 25 KB)', async () => {
    const [repo, head] = ['acme/answer-parts', sha('answer-parts')];
    await putGate(t, repo, RULES_BENCH_GATE);
    await checkRun(t, { repo_root: repo, commit_sha: head, name: 'ci/test' });
    await t.database.db('pull_request_authorship').insert({
      repo_root: repo,
      commit_sha: head,
      number: 7,
      status: 'read',
      facts: JSON.stringify(ruleHeadFacts(7, head)),
      commit_shas: [head],
    });
    for (let i = 0; i < 3; i++) {
      const res = await t.request.get(`/api/v1/releases/decision?repo_root=${repo}&commit_sha=${head}`).set(t.admin.auth);
      expect(res.status).toBe(200);
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
      expect(Buffer.byteLength(res.text)).toBeGreaterThan(16 * 1024);
      expect(res.body.authorship.rules).toHaveLength(RULE_HEADS.rules);
      expect(res.body.authorship.changed_files.count).toBe(RULE_HEADS.files);
    }
  });
});
