import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { EvidenceDocumentInvalid } from '../errors.js';
import { SUMMARY_NAME_LIMIT, type JunitSummary } from './evidence-summary.js';

type Element = Record<string, unknown>;

/** Elements that may repeat are always arrays; failure text and output are kept raw, never parsed. */
const REPEATED = new Set(['testsuite', 'testcase', 'failure', 'error', 'skipped']);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => REPEATED.has(name),
  stopNodes: ['*.failure', '*.error', '*.skipped', '*.system-out', '*.system-err', '*.properties'],
});

const NAME_LENGTH = 300;

interface Tally {
  total: number;
  failed: number;
  errored: number;
  skipped: number;
  failing: string[];
}

function attribute(element: Element, name: string): string {
  const value = element[`@_${name}`];
  return typeof value === 'string' ? value.trim() : '';
}

/** The largest count read: summed over the suites of a 10 MiB report, counts stay exact whole numbers. */
const MAX_COUNT = 1_000_000_000;
/** A decimal number as producers write counts: `3`, `1.0`, `1e3`; never `Infinity`, `NaN`, `0x10` or a sign but `+`. */
const DECIMAL = /^\+?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * A count attribute of the suite at `loc`: 0 when absent or empty, else the number, a fraction rounded up so failures
 * are never undercounted. Anything else (`NaN`, `Infinity`, `-1`, `abc`) refuses the document rather than reading as
 * 0, which would let a suite that says it failed pass `max_failed: 0`.
 */
function countAttribute(element: Element, name: string, loc: (string | number)[]): number {
  const text = attribute(element, name);
  if (text === '') return 0;
  const count = DECIMAL.test(text) ? Math.ceil(Number(text)) : NaN;
  if (!(count <= MAX_COUNT)) {
    const at = [...loc, `@${name}`];
    throw new EvidenceDocumentInvalid(
      at,
      `Not a count: ${name}="${text.slice(0, 40)}" at ${at.join('.')} (a number from 0 to ${MAX_COUNT}).`,
    );
  }
  return count;
}

function children(element: Element, name: string): Element[] {
  const value = element[name];
  return Array.isArray(value) ? value.map((v) => (typeof v === 'object' && v !== null ? (v as Element) : {})) : [];
}

/**
 * A test's name as people read it: surefire and pytest `classname.name` (com.acme.CartTest.addsItem), jest-junit's
 * classname when it already holds the name, else `classname › name`.
 */
function testName(testcase: Element, suiteName: string): string {
  const name = attribute(testcase, 'name') || '(unnamed test)';
  const classname = attribute(testcase, 'classname') || suiteName;
  let full = name;
  if (classname && !name.includes(classname)) full = /^[\w$.]+$/.test(classname) ? `${classname}.${name}` : `${classname} › ${name}`;
  return full.length > NAME_LENGTH ? `${full.slice(0, NAME_LENGTH - 1)}…` : full;
}

/** A test case's outcome, in this order: a case with both <failure> and <error> failed. */
const OUTCOMES = [
  { element: 'failure', kind: 'failed' },
  { element: 'error', kind: 'errored' },
  { element: 'skipped', kind: 'skipped' },
] as const;

function addFailing(tally: Tally, name: string): void {
  if (tally.failing.length < SUMMARY_NAME_LIMIT) tally.failing.push(name);
}

/**
 * Counts a suite from its test cases: a case with <failure> failed, else with <error> errored, else with <skipped>
 * was skipped. A suite holding only test cases may claim more in its attributes than its cases show (a suite that
 * failed to load reports `errors="1"` and no case); the larger number counts, so nothing a producer reports is lost.
 */
function tallySuite(suite: Element, tally: Tally, loc: (string | number)[]): void {
  const suiteName = attribute(suite, 'name');
  const nested = children(suite, 'testsuite');
  // One loc, extended and restored: a copy per suite would cost the square of the nesting depth.
  nested.forEach((inner, i) => {
    loc.push('testsuite', i);
    tallySuite(inner, tally, loc);
    loc.length -= 2;
  });
  const cases = children(suite, 'testcase');
  const seen = { failed: 0, errored: 0, skipped: 0 };
  for (const testcase of cases) {
    tally.total += 1;
    const kind = OUTCOMES.find((outcome) => children(testcase, outcome.element).length > 0)?.kind;
    if (!kind) continue;
    seen[kind] += 1;
    if (kind !== 'skipped') addFailing(tally, testName(testcase, suiteName));
  }
  tally.failed += seen.failed;
  tally.errored += seen.errored;
  tally.skipped += seen.skipped;
  if (nested.length > 0) return;
  const extra = {
    failed: Math.max(0, countAttribute(suite, 'failures', loc) - seen.failed),
    errored: Math.max(0, countAttribute(suite, 'errors', loc) - seen.errored),
    skipped: Math.max(0, countAttribute(suite, 'skipped', loc) - seen.skipped),
  };
  tally.failed += extra.failed;
  tally.errored += extra.errored;
  tally.skipped += extra.skipped;
  const claimedTotal = Math.max(countAttribute(suite, 'tests', loc), cases.length + extra.failed + extra.errored + extra.skipped);
  tally.total += claimedTotal - cases.length;
  if (extra.failed + extra.errored > 0) addFailing(tally, `${suiteName || '(unnamed suite)'} (reported by the suite)`);
}

/**
 * A JUnit XML report (docs/release-gate.md, "Evidence read by content"): jest-junit, Maven surefire and pytest
 * flavours, with a `<testsuites>` root or a bare `<testsuite>`. Parsed by fast-xml-parser after its validator; a
 * DOCTYPE is refused (JUnit reports have none, and entity declarations are how XML bombs start).
 */
export function parseJunit(text: string): JunitSummary {
  if (/<!DOCTYPE/i.test(text)) throw new EvidenceDocumentInvalid([], 'A JUnit report may not declare a DOCTYPE.');
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw new EvidenceDocumentInvalid([], `The document is not well-formed XML (line ${line}${col ? `, column ${col}` : ''}): ${msg}`);
  }
  const document = parser.parse(text) as Element;
  const root = Object.keys(document).find((key) => !key.startsWith('#') && !key.startsWith('?'));
  const tally: Tally = { total: 0, failed: 0, errored: 0, skipped: 0, failing: [] };
  if (root === 'testsuites') {
    const top = document.testsuites;
    const element = typeof top === 'object' && top !== null ? (top as Element) : {};
    children(element, 'testsuite').forEach((suite, i) => tallySuite(suite, tally, ['testsuites', 'testsuite', i]));
  } else if (root === 'testsuite') {
    for (const suite of children(document, 'testsuite')) tallySuite(suite, tally, ['testsuite']);
  } else {
    throw new EvidenceDocumentInvalid(root ? [root] : [], 'A JUnit report’s root element is <testsuites> or <testsuite>.');
  }
  return { format: 'junit', ...tally };
}
