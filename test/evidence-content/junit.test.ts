import { bytesOf, refusal, summaryOf } from './support/evidence-fixtures.js';

describe('JUnit reports are counted from their test cases', () => {
  it('reads a jest-junit report with three failures', async () => {
    expect(await summaryOf('jest-junit-failing.xml')).toEqual({
      format: 'junit',
      total: 9,
      failed: 3,
      errored: 0,
      skipped: 1,
      failing: ['Cart removes an item', 'Cart applies a discount code', 'Checkout retries a declined card'],
    });
  });

  it('reads a passing jest-junit report', async () => {
    expect(await summaryOf('jest-junit-passing.xml', 'junit')).toEqual({
      format: 'junit',
      total: 4,
      failed: 0,
      errored: 0,
      skipped: 0,
      failing: [],
    });
  });

  it('reads a Maven surefire report (a bare <testsuite>): failures, an error, a skip, and a flaky pass that is no failure', async () => {
    expect(await summaryOf('surefire-failing.xml')).toEqual({
      format: 'junit',
      total: 6,
      failed: 2,
      errored: 1,
      skipped: 1,
      failing: [
        'com.acme.billing.InvoiceServiceTest.roundsHalfEven',
        'com.acme.billing.InvoiceServiceTest.creditNoteNegatesTotal',
        'com.acme.billing.InvoiceServiceTest.loadsTaxTable',
      ],
    });
    expect(await summaryOf('surefire-passing.xml')).toMatchObject({ total: 3, failed: 0, errored: 0, skipped: 0, failing: [] });
  });

  it('reads a pytest report', async () => {
    expect(await summaryOf('pytest.xml')).toEqual({
      format: 'junit',
      total: 5,
      failed: 1,
      errored: 1,
      skipped: 1,
      failing: ['tests.test_orders.TestOrders.test_cancel_order', 'tests.test_db.test_migrations'],
    });
  });

  it('counts the test cases, not what the attributes claim', async () => {
    const lying = `<testsuites tests="1" failures="0"><testsuite name="s" tests="1" failures="0">
      <testcase classname="a" name="one"><failure/></testcase><testcase classname="a" name="two"><failure/></testcase>
      <testcase classname="a" name="three"/></testsuite></testsuites>`;
    expect(await summaryOf(bytesOf(lying))).toMatchObject({ total: 3, failed: 2, failing: ['a.one', 'a.two'] });
  });

  it('keeps what a suite reports beyond its test cases (a suite that failed to load has no case)', async () => {
    const report = `<testsuites><testsuite name="src/broken.test.ts" tests="0" failures="0" errors="1" skipped="2"></testsuite>
      <testsuite name="ok" tests="3"><testcase name="x"/></testsuite></testsuites>`;
    expect(await summaryOf(bytesOf(report))).toEqual({
      format: 'junit',
      total: 3 + 3,
      failed: 0,
      errored: 1,
      skipped: 2,
      failing: ['src/broken.test.ts (reported by the suite)'],
    });
  });

  it('keeps what a <testsuites> root reports beyond its suites, and a suite’s own <error> or <failure> outside any case', async () => {
    const root = `<testsuites tests="3" failures="2"><testsuite name="s"><testcase name="a"/></testsuite></testsuites>`;
    expect(await summaryOf(bytesOf(root))).toEqual({
      format: 'junit',
      total: 3,
      failed: 2,
      errored: 0,
      skipped: 0,
      failing: ['the report (reported by <testsuites>)'],
    });
    const own = `<testsuite name="loader" tests="0"><error message="suite failed to load"/></testsuite>`;
    expect(await summaryOf(bytesOf(own))).toMatchObject({ total: 1, errored: 1, failing: ['loader (reported by the suite)'] });
  });

  it('walks nested suites without counting a parent’s attributes twice', async () => {
    const report = `<testsuites><testsuite name="outer" tests="2" failures="1">
      <testsuite name="inner" tests="2" failures="1"><testcase classname="Outer inner" name="fails"><failure/></testcase>
      <testcase classname="Outer inner" name="passes"/></testsuite></testsuite></testsuites>`;
    expect(await summaryOf(bytesOf(report))).toMatchObject({ total: 2, failed: 1, failing: ['Outer inner › fails'] });
  });

  it('counts a case with both <failure> and <error> once, as failed', async () => {
    const report = `<testsuite name="s"><testcase name="t" classname="c"><failure/><error/></testcase></testsuite>`;
    expect(await summaryOf(bytesOf(report))).toMatchObject({ total: 1, failed: 1, errored: 0, failing: ['c.t'] });
  });

  it('keeps the first 20 failing names and clips long ones', async () => {
    const cases = Array.from({ length: 25 }, (_, i) => `<testcase classname="pkg.T" name="t${i}"><error/></testcase>`).join('');
    const long = `<testcase name="${'n'.repeat(400)}"><failure/></testcase>`;
    const summary = await summaryOf(bytesOf(`<testsuite name="s">${long}${cases}</testsuite>`));
    expect(summary).toMatchObject({ total: 26, failed: 1, errored: 25 });
    const failing = (summary as { failing: string[] }).failing;
    expect(failing).toHaveLength(20);
    expect(failing[0]).toHaveLength(300);
    expect(failing[0].endsWith('…')).toBe(true);
    expect(failing[19]).toBe('pkg.T.t18');
  });

  it('reads attribute values with entities, and an empty count as none', async () => {
    const report = `<testsuite name="s" tests="" failures=" "><testcase classname="A &amp; B" name="handles &lt;tags&gt;"><failure/></testcase></testsuite>`;
    expect(await summaryOf(bytesOf(report))).toMatchObject({ total: 1, failed: 1, failing: ['A & B › handles <tags>'] });
  });

  it('reads counts written as decimals or exponents, a fraction rounded up (never fewer failures than claimed)', async () => {
    const suite = (counts: string) => bytesOf(`<testsuites><testsuite name="s" ${counts}></testsuite></testsuites>`);
    expect(await summaryOf(suite('errors="1.0"'))).toMatchObject({ total: 1, errored: 1, failing: ['s (reported by the suite)'] });
    expect(await summaryOf(suite('tests="2e3" failures="1e3" errors="1.5" skipped="+.5"'))).toMatchObject({
      total: 2000,
      failed: 1000,
      errored: 2,
      skipped: 1,
    });
    // A positive count too small for a double is still a fraction of a failure.
    expect(await summaryOf(suite('failures="1e-400"'))).toMatchObject({ failed: 1 });
  });
});

describe('a JUnit report that is not one is refused with where', () => {
  it('refuses truncated XML naming the line', async () => {
    const cut = bytesOf(`<testsuites>\n<testsuite name="s">\n<testcase name="a"/>\n`);
    const { loc, message } = await refusal(cut, 'junit');
    expect(loc).toEqual([]);
    expect(message).toMatch(/not well-formed XML \(line \d+/);
  });

  it('refuses another root element with its name as loc', async () => {
    expect(await refusal(bytesOf('<project><build/></project>'), 'junit')).toEqual({
      loc: ['project'],
      message: 'A JUnit report’s root element is <testsuites> or <testsuite>.',
    });
  });

  it('refuses a test case inside a test case (it would hide its failure), naming where', async () => {
    const report = `<testsuite name="s"><testcase name="a"><testcase name="b"><failure/></testcase></testcase></testsuite>`;
    expect(await refusal(bytesOf(report), 'junit')).toMatchObject({
      loc: ['testsuite', 'testcase', 0],
      message: expect.stringMatching(/<testcase> may not hold/),
    });
  });

  it('says briefly what is wrong with XML that leaves a million tags open (not every tag again)', async () => {
    const refused = await refusal(bytesOf(`<testsuite>${'<a>'.repeat(1_000_000)}`), 'junit');
    expect(refused.message).toMatch(/^The document is not well-formed XML/);
    expect(refused.message.length).toBeLessThan(500);
  });

  it('refuses a DOCTYPE (entity expansion)', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE testsuite [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><testsuite name="&b;"/>`;
    expect(await refusal(bytesOf(bomb), 'junit')).toEqual({ loc: [], message: 'A JUnit report may not declare a DOCTYPE.' });
  });

  it.each(['NaN', 'Infinity', '-1', 'abc', '0x10', '1e400', '1000000001'])(
    'refuses a count attribute %s, naming the suite and the attribute',
    async (value) => {
      const report = `<testsuites><testsuite name="ok" tests="1"/><testsuite name="outer"><testsuite name="bad" errors="${value}"/></testsuite></testsuites>`;
      expect(await refusal(bytesOf(report), 'junit')).toEqual({
        loc: ['testsuites', 'testsuite', 1, 'testsuite', 0, '@errors'],
        message: `Not a count: errors="${value}" at testsuites.testsuite.1.testsuite.0.@errors (a number from 0 to 1000000000).`,
      });
    },
  );

  it('refuses a malformed count of a bare <testsuite> root', async () => {
    expect((await refusal(bytesOf('<testsuite name="s" tests="NaN"/>'), 'junit')).loc).toEqual(['testsuite', '@tests']);
  });

  it('refuses JSON declared as JUnit', async () => {
    expect((await refusal(bytesOf({ tests: 3 }), 'junit')).message).toMatch(/not well-formed XML/);
  });
});
