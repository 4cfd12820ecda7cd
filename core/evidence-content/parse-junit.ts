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

interface Counts {
  total: number;
  failed: number;
  errored: number;
  skipped: number;
}

const none = (): Counts => ({ total: 0, failed: 0, errored: 0, skipped: 0 });

function addCounts(to: Counts, from: Counts): void {
  to.total += from.total;
  to.failed += from.failed;
  to.errored += from.errored;
  to.skipped += from.skipped;
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
  // A positive count too small for a double (`1e-400`) still rounds up to 1.
  const count = DECIMAL.test(text) ? Math.max(Math.ceil(Number(text)), /[1-9]/.test(text.split(/e/i)[0]) ? 1 : 0) : NaN;
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

function addFailing(failing: string[], name: string): void {
  if (failing.length < SUMMARY_NAME_LIMIT) failing.push(name);
}

/**
 * An element's counts: what its content showed, or what its attributes claim where they claim more (a suite that
 * failed to load reports `errors="1"` and no case; a `<testsuites>` root may total more than its suites), so nothing
 * a producer reports as failing is lost, and nothing is counted twice.
 */
function claimed(element: Element, shown: Counts, failing: string[], loc: (string | number)[], label: string): Counts {
  const extra = {
    failed: Math.max(0, countAttribute(element, 'failures', loc) - shown.failed),
    errored: Math.max(0, countAttribute(element, 'errors', loc) - shown.errored),
    skipped: Math.max(0, countAttribute(element, 'skipped', loc) - shown.skipped),
  };
  if (extra.failed + extra.errored > 0) addFailing(failing, label);
  const total = Math.max(countAttribute(element, 'tests', loc), shown.total + extra.failed + extra.errored + extra.skipped);
  return { total, failed: shown.failed + extra.failed, errored: shown.errored + extra.errored, skipped: shown.skipped + extra.skipped };
}

/**
 * Counts a suite from its nested suites and its test cases: a case with <failure> failed, else with <error> errored,
 * else with <skipped> was skipped. A <failure> or <error> of the suite itself (outside any case) counts as a failed
 * or errored test of its own; then the suite's attributes, where they claim more (see claimed).
 */
function tallySuite(suite: Element, failing: string[], loc: (string | number)[]): Counts {
  const suiteName = attribute(suite, 'name') || '(unnamed suite)';
  const shown = none();
  // One loc, extended and restored: a copy per suite would cost the square of the nesting depth.
  children(suite, 'testsuite').forEach((inner, i) => {
    loc.push('testsuite', i);
    addCounts(shown, tallySuite(inner, failing, loc));
    loc.length -= 2;
  });
  children(suite, 'testcase').forEach((testcase, i) => {
    if (children(testcase, 'testcase').length > 0)
      throw new EvidenceDocumentInvalid([...loc, 'testcase', i], 'A <testcase> may not hold another <testcase>.');
    shown.total += 1;
    const kind = OUTCOMES.find((outcome) => children(testcase, outcome.element).length > 0)?.kind;
    if (!kind) return;
    shown[kind] += 1;
    if (kind !== 'skipped') addFailing(failing, testName(testcase, suiteName));
  });
  const own = { failed: children(suite, 'failure').length, errored: children(suite, 'error').length };
  if (own.failed + own.errored > 0) addFailing(failing, `${suiteName} (reported by the suite)`);
  shown.failed += own.failed;
  shown.errored += own.errored;
  shown.total += own.failed + own.errored;
  return claimed(suite, shown, failing, loc, `${suiteName} (reported by the suite)`);
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
    // The validator's message may quote every open tag (megabytes of them): the start says what is wrong.
    const said = msg.length > 300 ? `${msg.slice(0, 299)}…` : msg;
    throw new EvidenceDocumentInvalid([], `The document is not well-formed XML (line ${line}${col ? `, column ${col}` : ''}): ${said}`);
  }
  const document = parser.parse(text) as Element;
  const root = Object.keys(document).find((key) => !key.startsWith('#') && !key.startsWith('?'));
  const failing: string[] = [];
  const counts = none();
  if (root === 'testsuites') {
    const top = document.testsuites;
    const element = typeof top === 'object' && top !== null ? (top as Element) : {};
    children(element, 'testsuite').forEach((suite, i) => addCounts(counts, tallySuite(suite, failing, ['testsuites', 'testsuite', i])));
    return {
      format: 'junit',
      ...claimed(element, counts, failing, ['testsuites'], `${attribute(element, 'name') || 'the report'} (reported by <testsuites>)`),
      failing,
    };
  }
  if (root !== 'testsuite')
    throw new EvidenceDocumentInvalid(root ? [root] : [], 'A JUnit report’s root element is <testsuites> or <testsuite>.');
  for (const suite of children(document, 'testsuite')) addCounts(counts, tallySuite(suite, failing, ['testsuite']));
  return { format: 'junit', ...counts, failing };
}
