import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * One helper location per area (ARCHITECTURE.md, the `test/` row): an area folder holds its
 * `*.test.ts` files; helpers live in `test/support/` (shared), `test/<area>/support/` or
 * `test/fakes/`, and data a test reads in `fixtures/`.
 */
const HELPER_HOMES = [/^test\/support\//, /^test\/[^/]+\/support\//, /^test\/fakes\//, /(^|\/)fixtures\//];

function misplaced(file: string): boolean {
  if (!/\.(ts|mts|js|mjs)$/.test(file) || file.endsWith('.test.ts')) return false;
  return !HELPER_HOMES.some((home) => home.test(file));
}

/** Files under test/ in the working tree (tracked or new), so a helper is caught before it is committed. */
function testTreeFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'test'], { encoding: 'utf8' });
  return listed
    .split('\n')
    .filter(Boolean)
    .filter((file) => fs.existsSync(file));
}

describe('test helpers live in support/ folders', () => {
  it('tells a misplaced helper from a test, a support file, a fake and a fixture', () => {
    expect(misplaced('test/release/release-api.ts')).toBe(true);
    expect(misplaced('test/helpers/test-app.ts')).toBe(true);
    expect(misplaced('test/helpers/global-setup.mjs')).toBe(true);
    expect(misplaced('test/release/support/nested/deep.ts')).toBe(false);
    expect(misplaced('test/release/decision-api.test.ts')).toBe(false);
    expect(misplaced('test/support/test-app.ts')).toBe(false);
    expect(misplaced('test/github/support/app-with-fake-github.ts')).toBe(false);
    expect(misplaced('test/fakes/fake-github-server.ts')).toBe(false);
    expect(misplaced('test/github/fixtures/wrong-check-run-status.fixture.ts')).toBe(false);
    expect(misplaced('test/certificates/fixtures/v1-workflow-package.json')).toBe(false);
  });

  it('holds for every file under test/', () => {
    expect(testTreeFiles().filter(misplaced)).toEqual([]);
  });

  it('has no test/helpers/ folder: shared helpers are in test/support/', () => {
    expect(fs.existsSync('test/helpers')).toBe(false);
  });
});
