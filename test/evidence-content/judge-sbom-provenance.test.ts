import type { ProvenanceSummary, SbomSummary } from '../../core/evidence-content/evidence-summary.js';
import { requiredEvidenceEntrySchema } from '../../core/evidence-content/evidence-rules.js';
import { judgeEvidenceContent } from '../../core/evidence-content/judge-evidence-content.js';
import { createLicenseDenial } from '../../core/evidence-content/license-policy.js';
import { SbomTally } from '../../core/evidence-content/sbom-tally.js';
import { jwkThumbprint } from '../../core/evidence-content/provenance-keys.js';
import { envelopeOf, fixtureJson, generateTestKey, summaryOf } from './support/evidence-fixtures.js';

const COMMIT = '4f2a9c1e7b3d5a6f8e0c2b4d6a8f0e1c3b5d7a9f';
const entry = (value: unknown) => requiredEvidenceEntrySchema.parse(value);
const sbomEntry = (format: 'cyclonedx' | 'spdx', rules: unknown) => entry({ name: 'sbom', format, rules });

describe('the denied-licence decision', () => {
  const denied = createLicenseDenial(['GPL-3.0-only']);

  it.each([
    ['GPL-3.0-only', true],
    ['MIT AND GPL-3.0-only', true],
    ['MIT OR GPL-3.0-only', false],
    ['(MIT OR Apache-2.0) AND GPL-3.0-only', true],
    ['(MIT AND GPL-3.0-only) OR Apache-2.0', false],
    ['GPL-3.0-or-later', true],
    ['MIT', false],
    ['GPL-2.0-only', false],
    ['LicenseRef-acme-proprietary', false],
    ['Some custom licence', false],
    // Malformed expressions cannot hide a denied licence: a word of them that is one denies.
    ['GPL-3.0-only AND (((', true],
    ['GPL-3.0-only)', true],
    ['MIT/GPL-3.0-only', true],
    ['MIT AND %%%', false],
  ])('%s denied under [GPL-3.0-only]: %s', (expression, expected) => {
    expect(denied(expression)).toBe(expected);
  });

  it('a range denies later versions; an expression denies each licence it names; exceptions need naming', () => {
    expect(createLicenseDenial(['GPL-2.0+'])('GPL-3.0-only')).toBe(true);
    const either = createLicenseDenial(['AGPL-3.0-only OR SSPL-1.0']);
    expect(either('SSPL-1.0')).toBe(true);
    expect(either('AGPL-3.0-only OR SSPL-1.0')).toBe(true);
    expect(createLicenseDenial(['GPL-2.0-only'])('GPL-2.0-only WITH Classpath-exception-2.0')).toBe(false);
    expect(createLicenseDenial(['GPL-2.0-only WITH Classpath-exception-2.0'])('GPL-2.0-only WITH Classpath-exception-2.0')).toBe(true);
    expect(createLicenseDenial(['LicenseRef-acme-proprietary'])('MIT AND LicenseRef-acme-proprietary')).toBe(true);
    expect(createLicenseDenial(['GPL-3.0-only'])('gpl-3.0-only')).toBe(true);
  });
});

describe('SBOM rules', () => {
  it('blocks the CycloneDX SBOM with a GPL-3.0-only component, naming it; the dual-licensed one is allowed', async () => {
    const summary = await summaryOf('cyclonedx-1.5-gpl.json');
    expect(judgeEvidenceContent(summary, sbomEntry('cyclonedx', { denied_licenses: ['GPL-3.0-only'] }), COMMIT)).toEqual([
      {
        rule: 'denied_licenses',
        passed: false,
        detail: '1 of 6 components use a denied licence: @acme/readline@3.1.0 (GPL-3.0-only).',
        remediation: expect.stringContaining('denied_licenses'),
      },
    ]);
    const passing = judgeEvidenceContent(summary, sbomEntry('cyclonedx', { denied_licenses: ['AGPL-3.0-only'] }), COMMIT);
    expect(passing).toEqual([expect.objectContaining({ passed: true, detail: 'No component uses a denied licence (AGPL-3.0-only).' })]);
  });

  it('reads the SPDX 2.3 SBOM the same way', async () => {
    const summary = await summaryOf('spdx-2.3-gpl.json');
    const [result] = judgeEvidenceContent(summary, sbomEntry('spdx', { denied_licenses: ['GPL-3.0-only'] }), COMMIT);
    expect(result).toMatchObject({ passed: false, detail: '1 of 4 components use a denied licence: readline@3.1.0 (GPL-3.0-only).' });
  });

  it('require_licenses names the components without one', async () => {
    const summary = await summaryOf('cyclonedx-1.5-gpl.json');
    expect(judgeEvidenceContent(summary, sbomEntry('cyclonedx', { require_licenses: true }), COMMIT)).toEqual([
      expect.objectContaining({ rule: 'require_licenses', passed: false, detail: '1 of 6 components name no licence: mystery@0.0.1.' }),
    ]);
    const licensed: SbomSummary = { ...(summary as SbomSummary), unlicensed: [], unlicensed_count: 0 };
    expect(judgeEvidenceContent(licensed, sbomEntry('cyclonedx', { require_licenses: true }), COMMIT)[0]).toMatchObject({ passed: true });
  });

  it('has no default rule; a truncated licence list fails a denied-licence rule closed', async () => {
    const summary = (await summaryOf('spdx-2.3-gpl.json')) as SbomSummary;
    expect(judgeEvidenceContent(summary, entry('sbom'), COMMIT)).toEqual([]);
    expect(judgeEvidenceContent(summary, entry({ name: 'sbom', format: 'spdx' }), COMMIT)).toEqual([]);
    const truncated = { ...summary, licenses: [], licenses_truncated: true };
    const [result] = judgeEvidenceContent(truncated, sbomEntry('spdx', { denied_licenses: ['GPL-3.0-only'] }), COMMIT);
    expect(result).toMatchObject({ passed: false, detail: expect.stringMatching(/more distinct licences than shipgate keeps/) });
  });
});

describe('a long licence expression', () => {
  const rules = sbomEntry('cyclonedx', { denied_licenses: ['GPL-3.0-only'] });
  const judged = (expression: string) => {
    const tally = new SbomTally();
    tally.add('lib@1.0.0', [expression]);
    tally.add('other@2.0.0', ['MIT']);
    return judgeEvidenceContent(tally.summary('cyclonedx', '1.5'), rules, COMMIT)[0];
  };

  it('is judged whole up to 1,000 characters, and fails the rule closed past them (it was cut to 300 and passed)', () => {
    const denied = `${'MIT AND '.repeat(100)}GPL-3.0-only`;
    expect(denied.length).toBeGreaterThan(300);
    expect(judged(denied)).toMatchObject({
      passed: false,
      detail: expect.stringMatching(/^1 of 2 components use a denied licence: lib@1.0.0/),
    });
    expect(judged(`${'MIT AND '.repeat(100)}Apache-2.0`)).toMatchObject({ passed: true });
    const tooLong = `${'MIT AND '.repeat(200)}Apache-2.0`;
    expect(judged(tooLong)).toMatchObject({ passed: false, detail: expect.stringMatching(/or one longer than 1000 characters/) });
  });

  it('recorded cut to 300 characters before November 2026 fails the rule closed', () => {
    const clipped = `${'MIT AND '.repeat(40)}`.slice(0, 299) + '…';
    const summary: SbomSummary = {
      format: 'cyclonedx',
      spec_version: '1.5',
      components: 1,
      licenses: [{ expression: clipped, components: ['lib@1.0.0'], count: 1 }],
      licenses_truncated: false,
      unlicensed: [],
      unlicensed_count: 0,
    };
    expect(judgeEvidenceContent(summary, rules, COMMIT)[0]).toMatchObject({ passed: false });
  });
});

describe('provenance rules', () => {
  const statement = fixtureJson('slsa-provenance-statement.json');
  const provenance = (rules: unknown) => entry({ name: 'provenance', format: 'provenance', rules });

  it('a correct, signed provenance passes every rule', async () => {
    const key = generateTestKey('ed25519', 'ci-2026');
    const summary = await summaryOf(envelopeOf(statement, [key]), null, [key.jwk]);
    const builder = 'https://github.com/actions/runner/github-hosted';
    for (const keys of [[key.jwk], ['ci-2026'], [jwkThumbprint(key.jwk)]]) {
      const results = judgeEvidenceContent(summary, provenance({ builder_ids: [builder], keys }), COMMIT.toUpperCase());
      expect(results.map((r) => [r.rule, r.passed])).toEqual([
        ['builder_ids', true],
        ['commit_must_match', true],
        ['keys', true],
      ]);
    }
  });

  it('blocks another commit, another builder, and a signature the named key did not make', async () => {
    const signer = generateTestKey('ed25519');
    const named = generateTestKey('p256', 'release');
    const summary = await summaryOf(envelopeOf(statement, [signer]), null, [named.jwk]);
    const results = judgeEvidenceContent(
      summary,
      provenance({ builder_ids: ['https://builder.acme.dev'], keys: [named.jwk] }),
      'b'.repeat(40),
    );
    expect(results).toEqual([
      expect.objectContaining({
        rule: 'builder_ids',
        passed: false,
        detail: 'Built by https://github.com/actions/runner/github-hosted; the gate allows https://builder.acme.dev.',
      }),
      expect.objectContaining({
        rule: 'commit_must_match',
        passed: false,
        detail: `The provenance names ${COMMIT}; the release is ${'b'.repeat(40)}.`,
      }),
      expect.objectContaining({
        rule: 'keys',
        passed: false,
        detail: 'None of the envelope’s 1 signature(s) verified with a key the gate names.',
      }),
    ]);
  });

  it('accepts the commit in a subject’s gitCommit digest; says when none is named; can be turned off', () => {
    const base: ProvenanceSummary = {
      format: 'provenance',
      envelope: false,
      predicate_type: 'https://slsa.dev/provenance/v1',
      builder_id: 'b',
      build_type: 't',
      subjects: [{ name: 'repo', digest: { gitCommit: COMMIT } }],
      subjects_count: 1,
      source_commits: [],
      signatures: 0,
      verified_keys: [],
    };
    expect(judgeEvidenceContent(base, provenance({}), COMMIT)).toEqual([
      expect.objectContaining({ rule: 'commit_must_match', passed: true }),
    ]);
    const none = { ...base, subjects: [{ name: 'a.tgz', digest: { sha256: 'ab' } }] };
    expect(judgeEvidenceContent(none, provenance({}), COMMIT)[0]).toMatchObject({
      passed: false,
      detail: `The provenance names no commit (no gitCommit digest); the release is ${COMMIT}.`,
    });
    expect(judgeEvidenceContent(none, provenance({ commit_must_match: false }), COMMIT)).toEqual([]);
    expect(judgeEvidenceContent(none, entry({ name: 'p', format: 'provenance' }), COMMIT)).toEqual([]);
    expect(judgeEvidenceContent(none, provenance({ commit_must_match: false, keys: ['k'] }), COMMIT)[0]).toMatchObject({
      rule: 'keys',
      passed: false,
      detail: 'The provenance is a bare statement: it carries no signature.',
    });
  });
});
