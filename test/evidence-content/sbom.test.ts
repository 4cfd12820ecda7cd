import { bytesOf, fixtureJson, refusal, summaryOf } from './support/evidence-fixtures.js';

const cdx = (specVersion: string, components: unknown[]) => ({ bomFormat: 'CycloneDX', specVersion, version: 1, components });
const spdx = (packages: unknown[]) => ({ ...fixtureJson('spdx-2.3-gpl.json'), packages });
const pkg = (name: string, licenseConcluded?: string, licenseDeclared?: string) => ({
  name,
  SPDXID: `SPDXRef-${name}`,
  downloadLocation: 'NOASSERTION',
  ...(licenseConcluded ? { licenseConcluded } : {}),
  ...(licenseDeclared ? { licenseDeclared } : {}),
});

describe('CycloneDX SBOMs: components and their licences', () => {
  it('reads a CycloneDX 1.5 SBOM: nested components, ids, names, expressions, and a component with none', async () => {
    expect(await summaryOf('cyclonedx-1.5-gpl.json')).toEqual({
      format: 'cyclonedx',
      spec_version: '1.5',
      components: 6,
      licenses: [
        { expression: 'MIT', components: ['express@4.21.1', 'body-parser@1.20.3'], count: 2 },
        { expression: 'GPL-3.0-only', components: ['@acme/readline@3.1.0'], count: 1 },
        { expression: 'MIT OR GPL-3.0-only', components: ['dual@1.0.0'], count: 1 },
        { expression: 'WTFPL-like custom licence', components: ['left-pad@1.3.0'], count: 1 },
      ],
      licenses_truncated: false,
      unlicensed: ['mystery@0.0.1'],
      unlicensed_count: 1,
    });
  });

  it('reads 1.4 and 1.6; files a component with several licences under each', async () => {
    const both = [{ type: 'library', name: 'two', licenses: [{ license: { id: 'MIT' } }, { license: { id: 'GPL-3.0-only' } }] }];
    for (const version of ['1.4', '1.6']) {
      expect(await summaryOf(cdx(version, both), 'cyclonedx')).toMatchObject({
        spec_version: version,
        components: 1,
        licenses: [
          { expression: 'GPL-3.0-only', components: ['two'], count: 1 },
          { expression: 'MIT', components: ['two'], count: 1 },
        ],
        unlicensed_count: 0,
      });
    }
  });

  it('reads a duplicated component (the schema’s uniqueItems is not checked: quadratic) as listed', async () => {
    const one = { type: 'library', name: 'dup', licenses: [{ license: { id: 'MIT' } }] };
    expect(await summaryOf(cdx('1.5', [one, one]))).toMatchObject({ components: 2, licenses: [{ expression: 'MIT', count: 2 }] });
  });

  it('keeps the first 20 names per licence and 500 distinct licences', async () => {
    const many = Array.from({ length: 530 }, (_, i) => ({
      type: 'library',
      name: `c${i}`,
      licenses: [{ license: { name: i < 30 ? 'Shared' : `Custom ${i}` } }],
    }));
    const summary = (await summaryOf(cdx('1.6', many))) as { licenses: { count: number; components: string[] }[] };
    expect(summary).toMatchObject({ components: 530, licenses_truncated: true });
    expect(summary.licenses).toHaveLength(500);
    expect(summary.licenses[0]).toMatchObject({ expression: 'Shared', count: 30 });
    expect(summary.licenses[0].components).toHaveLength(20);
  });

  it('refuses JSON declared as an SBOM that is not one, at loc bomFormat', async () => {
    expect(await refusal(bytesOf({ name: 'shop', dependencies: {} }), 'cyclonedx')).toEqual({
      loc: ['bomFormat'],
      message: 'Not a CycloneDX SBOM: `bomFormat` is not "CycloneDX".',
    });
  });

  it('refuses a spec version it does not read, at loc specVersion', async () => {
    const { loc, message } = await refusal(bytesOf(cdx('1.3', [])));
    expect(loc).toEqual(['specVersion']);
    expect(message).toBe('CycloneDX 1.4, 1.5 and 1.6 are read; this SBOM says "1.3".');
  });

  it('validates against the spec’s schema (as shipped by the CycloneDX library) and names where it breaks', async () => {
    const unknownId = cdx('1.5', [{ type: 'library', name: 'x', licenses: [{ license: { id: 'NOT-A-LICENCE' } }] }]);
    const { loc, message } = await refusal(bytesOf(unknownId));
    expect(loc).toEqual(['components', 0, 'licenses', 0, 'license', 'id']);
    expect(message).toMatch(/^Not a valid CycloneDX 1\.5 SBOM: components\.0\.licenses\.0\.license\.id must be equal to one of/);
    const extra = cdx('1.5', [{ type: 'library', name: 'x', colour: 'red' }]);
    expect((await refusal(bytesOf(extra))).loc).toEqual(['components', 0]);
    expect((await refusal(bytesOf({ bomFormat: 'CycloneDX', specVersion: '1.6', components: 'none' }))).loc).toEqual(['components']);
    expect((await refusal(bytesOf({ bomFormat: 'CycloneDX', specVersion: '1.6', serialNumber: 7 }))).loc).toEqual(['serialNumber']);
  });
});

describe('SPDX 2.3 SBOMs: packages and their licences', () => {
  it('reads an SPDX 2.3 document: concluded licence first, declared when NOASSERTION, NONE is no licence', async () => {
    expect(await summaryOf('spdx-2.3-gpl.json')).toEqual({
      format: 'spdx',
      spec_version: 'SPDX-2.3',
      components: 4,
      licenses: [
        { expression: 'GPL-3.0-only', components: ['readline@3.1.0'], count: 1 },
        { expression: 'MIT', components: ['express@4.21.1'], count: 1 },
        { expression: 'MIT OR GPL-3.0-only', components: ['dual@1.0.0'], count: 1 },
      ],
      licenses_truncated: false,
      unlicensed: ['mystery@0.0.1'],
      unlicensed_count: 1,
    });
  });

  it('prefers the concluded licence over the declared one; a package with neither is unlicensed', async () => {
    const summary = await summaryOf(spdx([pkg('a', 'Apache-2.0', 'MIT'), pkg('b'), pkg('c', 'NONE', 'NOASSERTION')]));
    expect(summary).toMatchObject({
      components: 3,
      licenses: [{ expression: 'Apache-2.0', components: ['a'], count: 1 }],
      unlicensed: ['b', 'c'],
      unlicensed_count: 2,
    });
  });

  it('refuses another SPDX version at loc spdxVersion, and a malformed package at its path', async () => {
    expect(await refusal(bytesOf({ ...fixtureJson('spdx-2.3-gpl.json'), spdxVersion: 'SPDX-2.2' }))).toEqual({
      loc: ['spdxVersion'],
      message: 'SPDX 2.3 JSON is read; this document says "SPDX-2.2".',
    });
    expect((await refusal(bytesOf({ packages: [] }), 'spdx')).loc).toEqual(['spdxVersion']);
    const badPackage = spdx([pkg('a', 'MIT'), { name: 'b', SPDXID: 'b' }]);
    expect((await refusal(bytesOf(badPackage))).loc).toEqual(['packages', 1, 'SPDXID']);
    const noCreation = { ...fixtureJson('spdx-2.3-gpl.json'), creationInfo: undefined };
    expect((await refusal(bytesOf(noCreation))).loc).toEqual(['creationInfo']);
  });
});
