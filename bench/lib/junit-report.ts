/** The evidence benches' document, reused by the tests that parse one off the event loop (test/release/evidence-parse-threads.timing.test.ts). */
export const REPORT_BYTES = 5 * 1024 * 1024;

const STACK = Array.from({ length: 12 }, (_, i) => `    at Object.&lt;anonymous&gt; (src/module-${i}.test.ts:${10 + i}:7)`).join('\n');

/** A jest-junit style report of about `bytes` bytes (padded to exactly that; 1% of its tests failing), `run` in its timestamp. */
export function junitReport(run: number, bytes = REPORT_BYTES): Buffer {
  const cases: string[] = [];
  let size = 0;
  let failures = 0;
  for (let i = 0; size < bytes - 4096; i++) {
    const name = `widgets module ${Math.floor(i / 50)} › case ${i} handles input ${i % 97}`;
    const failing = i % 100 === 7;
    failures += failing ? 1 : 0;
    const body = failing
      ? `<failure message="expect(received).toBe(expected)">Error: expect(received).toBe(expected)\n\nExpected: ${i}\nReceived: ${i + 1}\n${STACK}</failure>`
      : '';
    const line = `    <testcase classname="widgets module ${Math.floor(i / 50)}" name="${name}" time="0.${i % 1000}">${body}</testcase>\n`;
    cases.push(line);
    size += Buffer.byteLength(line);
  }
  const head =
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jest tests" tests="${cases.length}" failures="${failures}" errors="0" time="93.1">\n` +
    `  <testsuite name="widgets" errors="0" failures="${failures}" skipped="0" timestamp="2026-01-01T00:00:${String(run % 60).padStart(2, '0')}" time="93.1" tests="${cases.length}">\n`;
  const tail = '  </testsuite>\n</testsuites>\n';
  const text = head + cases.join('') + tail;
  // An XML comment fills the report up to exactly `bytes`, and makes every run's bytes differ.
  const open = `<!-- run ${run} `;
  const fill = Math.max(0, bytes - Buffer.byteLength(text) - Buffer.byteLength(open) - ' -->'.length);
  return Buffer.from(`${text}${open}${'x'.repeat(fill)} -->`);
}
