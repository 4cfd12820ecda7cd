import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brokenLinksIn, githubSlug, headingAnchorsOf, relativeLinksOf } from './support/markdown-links.js';

/** The documentation: the README, ARCHITECTURE.md, every guide under docs/, and the Action's README if it has one. */
function documentationFiles(): string[] {
  const guides = fs.existsSync('docs')
    ? fs
        .readdirSync('docs', { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.md'))
        .map((file) => path.join('docs', file))
    : [];
  return ['README.md', 'ARCHITECTURE.md', 'action/README.md', ...guides].filter((file) => fs.existsSync(file)).sort();
}

describe('documentation links', () => {
  it('covers the README, ARCHITECTURE.md and the guides in docs/', () => {
    expect(documentationFiles()).toEqual(expect.arrayContaining(['README.md', 'ARCHITECTURE.md', 'docs/api.md', 'docs/operations.md']));
  });

  it('every relative link resolves to a file, and every #anchor into Markdown to a heading', () => {
    expect(documentationFiles().flatMap(brokenLinksIn)).toEqual([]);
  });
});

describe('the link checker', () => {
  it("gives headings GitHub's anchors", () => {
    expect(githubSlug('Keyless: GitHub Actions OIDC')).toBe('keyless-github-actions-oidc');
    expect(githubSlug('Gate deployments (custom deployment protection rule)')).toBe('gate-deployments-custom-deployment-protection-rule');
    expect(githubSlug('`shipgate verify` and the [audit](x.md) package')).toBe('shipgate-verify-and-the-audit-package');
    expect([...headingAnchorsOf('# Notes\n## Notes\n```sh\n# not a heading\n```\n### Notes')]).toEqual(['notes', 'notes-1', 'notes-2']);
  });

  it('checks relative links only, outside code', () => {
    const links = relativeLinksOf(
      '[a](docs/a.md#Part) [b](https://example.com/x.md) [c](#here) `[d](e.md)`\n```\n[f](g.md)\n```\n[h]: ../h.md\n[![i](img.svg)](https://x)',
    );
    expect(links).toEqual([
      { text: 'a', target: 'docs/a.md', anchor: 'Part' },
      { text: 'c', target: '', anchor: 'here' },
      { text: 'i', target: 'img.svg' },
      { text: 'h', target: '../h.md' },
    ]);
  });

  it('reports a missing file and a missing heading', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-links-'));
    fs.writeFileSync(path.join(dir, 'guide.md'), '# Guide\n\n## Setting it up\n');
    fs.writeFileSync(
      path.join(dir, 'index.md'),
      '[ok](guide.md#setting-it-up) [gone](missing.md) [typo](guide.md#set-up) [self](#guide)\n',
    );
    expect(brokenLinksIn(path.join(dir, 'index.md'))).toEqual([
      `${dir}/index.md: [gone](missing.md): no such file`,
      `${dir}/index.md: [typo](guide.md#set-up): no heading with that anchor`,
      `${dir}/index.md: [self](#guide): no heading with that anchor`,
    ]);
    fs.rmSync(dir, { recursive: true });
  });
});
