import { randomBytes } from 'node:crypto';
import { EvidenceDocumentInvalid } from '../../core/errors.js';
import { detectEvidenceFormat } from '../../core/evidence-content/detect-evidence-format.js';
import { EVIDENCE_FORMATS, MAX_EVIDENCE_DOCUMENT_BYTES } from '../../core/evidence-content/evidence-format.js';
import { evidenceSummarySchema } from '../../core/evidence-content/evidence-summary.js';
import { parseEvidenceDocument } from '../../core/evidence-content/parse-evidence-document.js';
import { bytesOf, envelopeOf, fixtureBytes, fixtureJson, generateTestKey, refusal } from './support/evidence-fixtures.js';

const FIXTURES = {
  'jest-junit-failing.xml': 'junit',
  'surefire-failing.xml': 'junit',
  'pytest.xml': 'junit',
  'codeql-one-error.sarif': 'sarif',
  'cyclonedx-1.5-gpl.json': 'cyclonedx',
  'spdx-2.3-gpl.json': 'spdx',
  'slsa-provenance-statement.json': 'provenance',
} as const;

describe('format detection', () => {
  it.each(Object.entries(FIXTURES))('detects %s as %s', (name, format) => {
    expect(detectEvidenceFormat(fixtureBytes(name))).toBe(format);
  });

  it('detects a DSSE envelope, a BOM-prefixed report, and a SARIF log by its $schema', () => {
    const envelope = envelopeOf(fixtureJson('slsa-provenance-statement.json'), [generateTestKey('ed25519')]);
    expect(detectEvidenceFormat(bytesOf(envelope))).toBe('provenance');
    expect(detectEvidenceFormat(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fixtureBytes('pytest.xml')]))).toBe('junit');
    expect(detectEvidenceFormat(bytesOf({ $schema: 'https://json.schemastore.org/sarif-2.1.0.json' }))).toBe('sarif');
    expect(detectEvidenceFormat(bytesOf({ version: '2.0.0', runs: [] }))).toBe('sarif');
  });

  it('detects nothing in other documents', () => {
    for (const other of ['<html><body/></html>', '{"name":"shop"}', '[1]', 'plain text', '', '{"broken":']) {
      expect(detectEvidenceFormat(bytesOf(other))).toBeNull();
    }
    expect(detectEvidenceFormat(Buffer.from([0xff, 0xfe, 0x00, 0x3c]))).toBeNull();
  });

  it('finds the JUnit root after white space, an XML declaration and comments, each comment ending at its first -->', () => {
    const junit = [
      '<testsuite>',
      '<testsuites name="x">',
      '<testsuite/>',
      ' \n<?xml version="1.0" encoding="UTF-8"?>\n<testsuite\tname="a">',
      '<?xml?><testsuite>',
      '<!----><testsuite>',
      '<?xml version="1.0"?> <!-- a -- b --> \n <!--\n--><testsuites>',
      '\u00a0<!-- <testsuite> --><testsuite>',
    ];
    for (const text of junit) expect([text, detectEvidenceFormat(bytesOf(text))]).toEqual([text, 'junit']);
    const not = [
      '<testsuitex>',
      '<testsuitesx>',
      '<testsuite',
      '<?xml version="1.0"><testsuite>',
      '<?xml> <testsuite>',
      '<!-- never closed <testsuite>',
      // Past the comment's first -->, text that is neither a comment nor the root: not JUnit.
      '<!-- a --> b --><testsuite>',
      '<x/><testsuite>',
      `<!--${' '.repeat(64 * 1024)}--><testsuite>`,
    ];
    for (const text of not) expect([text, detectEvidenceFormat(bytesOf(text))]).toEqual([text, null]);
  });

  it('reads a prolog of many comments in one pass (issue 34: a backtracking regex took 8 s on 219 bytes)', () => {
    const started = performance.now();
    expect(detectEvidenceFormat(bytesOf('<!---->'.repeat(9_000) + '<x'))).toBeNull();
    expect(detectEvidenceFormat(bytesOf('<!---->'.repeat(9_000) + '<testsuite>'))).toBe('junit');
    // About 2 ms each; the old regex took seconds on 31 comments, doubling with each one more.
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('parseEvidenceDocument', () => {
  it.each(Object.entries(FIXTURES))('gives %s a summary its schema accepts', async (name, format) => {
    const parsed = await parseEvidenceDocument(fixtureBytes(name), null, []);
    expect(parsed.format).toBe(format);
    expect(evidenceSummarySchema.parse(parsed.summary)).toEqual(parsed.summary);
  });

  it('refuses an empty document, bytes that are not UTF-8, an undetectable one, and one over 10 MiB', async () => {
    expect(await refusal(new Uint8Array(0))).toEqual({ loc: [], message: 'The document is empty.' });
    expect(await refusal(Buffer.from([0x3c, 0xff, 0xfe]), 'junit')).toEqual({ loc: [], message: 'The document is not UTF-8 text.' });
    expect((await refusal(bytesOf('{"name":"shop"}'))).message).toMatch(/could not be detected.*Declare `format`/);
    const big = Buffer.alloc(MAX_EVIDENCE_DOCUMENT_BYTES + 1, 0x20);
    expect((await refusal(big, 'junit')).message).toBe(`The document is larger than ${MAX_EVIDENCE_DOCUMENT_BYTES} bytes.`);
  });
});

/** Bad input may only ever be read or refused with EvidenceDocumentInvalid: never another error, never a hang. */
async function readsOrRefuses(bytes: Uint8Array, declared: (typeof EVIDENCE_FORMATS)[number] | null): Promise<void> {
  try {
    const { summary } = await parseEvidenceDocument(bytes, declared, []);
    evidenceSummarySchema.parse(summary);
  } catch (error) {
    if (!(error instanceof EvidenceDocumentInvalid)) throw error;
    expect(Array.isArray(error.loc)).toBe(true);
    expect(error.message.length).toBeGreaterThan(0);
  }
}

describe('hostile documents are refused, never thrown at the server', () => {
  it('truncated at every 7th byte, each sample in its own and every declared format', async () => {
    for (const name of Object.keys(FIXTURES)) {
      const bytes = fixtureBytes(name);
      for (let cut = 0; cut < bytes.length; cut += 7) {
        for (const declared of [null, ...EVIDENCE_FORMATS]) await readsOrRefuses(bytes.subarray(0, cut), declared);
      }
    }
  }, 120_000);

  it('binary garbage, and samples with random bytes flipped', async () => {
    for (let i = 0; i < 200; i += 1) {
      for (const declared of [null, ...EVIDENCE_FORMATS]) await readsOrRefuses(randomBytes(1 + (i % 64) * 17), declared);
    }
    for (const name of Object.keys(FIXTURES)) {
      for (let i = 0; i < 40; i += 1) {
        const bytes = Buffer.from(fixtureBytes(name));
        for (let j = 0; j < 3; j += 1) bytes[(i * 7919 + j * 104729) % bytes.length] = randomBytes(1)[0];
        await readsOrRefuses(bytes, null);
      }
    }
  }, 120_000);

  it('huge nesting', async () => {
    const depth = 200_000;
    await readsOrRefuses(bytesOf(`${'['.repeat(depth)}${']'.repeat(depth)}`), 'sarif');
    await readsOrRefuses(bytesOf(`{"version":"2.1.0","runs":${'['.repeat(depth)}${']'.repeat(depth)}}`), 'sarif');
    const nestedComponents = `{"bomFormat":"CycloneDX","specVersion":"1.5","components":${'[{"type":"library","name":"x","components":'.repeat(5000)}[]${'}]'.repeat(5000)}}`;
    await readsOrRefuses(bytesOf(nestedComponents), 'cyclonedx');
    const xml = `<testsuites>${'<testsuite name="s">'.repeat(20_000)}${'</testsuite>'.repeat(20_000)}</testsuites>`;
    await readsOrRefuses(bytesOf(xml), 'junit');
    const deepXml = `<testsuite>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</testsuite>`;
    await readsOrRefuses(bytesOf(deepXml), 'junit');
  }, 120_000);
});
