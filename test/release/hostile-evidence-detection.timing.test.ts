import { randomUUID } from 'node:crypto';
import { withHealthzMeanwhile } from '../support/healthz-meanwhile.js';
import { sha } from '../support/release-api.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { sendDocument, stored } from './support/evidence-documents.js';

// Issue 34, acceptance 1 (docs/operations.md, "Regular expressions"): the 219-byte upload that held the whole
// process for 8 s, a JUnit prolog of 31 empty comments without a declared format, is answered at once.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // A server that has parsed a document before: the parser's threads started and loaded their code (half a second
  // on the first upload of a process), which is not what is measured here.
  const warm = Buffer.from('<testsuite name="warm" tests="1"><testcase classname="a" name="b"/></testsuite>');
  expect((await sendDocument(t, { repo: 'acme/warm', commit: sha('warm'), name: 'tests', bytes: warm })).status).toBe(201);
});
afterAll(async () => {
  await t.close();
});

describe('an upload whose format is detected from a prolog of many comments', () => {
  it("the issue's 219 bytes are answered within 1 s, and /healthz within 200 ms meanwhile", async () => {
    const bytes = Buffer.from('<!---->'.repeat(31) + '<x');
    expect(bytes.length).toBe(219);
    const [repo, commit] = [`acme/comments-${randomUUID().slice(0, 8)}`, sha(randomUUID())];
    const {
      result: res,
      ms,
      healthzMs,
    } = await withHealthzMeanwhile(
      () => t.request.get('/healthz').then((r) => r.status),
      async () => sendDocument(t, { repo, commit, name: 'tests', bytes }),
    );
    expect([res.status, res.body.detail?.[0]?.msg]).toEqual([422, expect.stringMatching(/format could not be detected/)]);
    expect(await stored(t, repo, commit, bytes)).toEqual({ evidence: 0, copies: 0 });
    if (process.env.SHOW_TIMINGS) console.log(`upload ${ms.toFixed(0)} ms, /healthz max ${Math.max(...healthzMs).toFixed(0)} ms`);
    expect(ms).toBeLessThan(1_000);
    expect(Math.max(...healthzMs)).toBeLessThan(200);
  });
});
