import { globsOverlap, isGlobPattern } from '../../core/glob-overlap.js';

describe("whether a rule's glob and a pattern an agent's call names can match one path", () => {
  it.each([
    ['.env*', '.e*'],
    ['.env*', '.en?'],
    ['.env*', '.[e]nv'],
    ['.env*', '.[!x]nv.local'],
    ['.env*', '.*'],
    ['.env*', '.{x,e}nv'],
    ['.env*', '\\.e*'],
    ['**/.env*', '**'],
    ['**/.env*', 'config/**'],
    ['.github/workflows/**', '.g*/w*/*.yml'],
    ['.github/workflows/**', '**/*.yml'],
    ['.github/workflows/*.yml', '.github/*/ci.y?l'],
    ['src/[a-f]*.ts', 'src/[e-z]x.ts'],
    ['a/**/b', 'a/**/**/b'],
    ['a/**/b', 'a/b'],
  ])('%j and %j do', (rule, pattern) => {
    expect(globsOverlap(rule, pattern)).toBe(true);
  });

  it.each([
    ['.env*', '.x*'],
    ['.env*', '*'],
    ['.env*', '?env'],
    ['.env*', '[.]env'],
    ['.github/workflows/*.yml', '*/workflows/*.yml'],
    ['.env*', 'src/*.ts'],
    ['.env*', '[a-z]*.ts'],
    ['.env*', '.[!e]nv'],
    ['.env*', '.en'],
    ['.github/workflows/**', 'src/**'],
    ['.github/workflows/*.yml', '.github/*.yml'],
    ['.github/workflows/*.yml', '.github/workflows/*.ts'],
    ['src/[a-d]*.ts', 'src/[e-z]*.ts'],
    ['a/*/b', 'a/b'],
  ])('%j and %j do not', (rule, pattern) => {
    expect(globsOverlap(rule, pattern)).toBe(false);
  });

  it("reads a rule's star as naming hidden files, a pattern's as bash does (only a `.` written first names one)", () => {
    expect(globsOverlap('*', '.env')).toBe(true);
    expect(globsOverlap('*/ci.yml', '.github/ci.yml')).toBe(true);
    expect(globsOverlap('.env', '*')).toBe(false);
    expect(globsOverlap('.github/ci.yml', '*/ci.yml')).toBe(false);
    expect(globsOverlap('.github/ci.yml', '**/ci.yml')).toBe(true);
  });

  it('answers a comparison too large to walk as overlapping (each pair below cannot match one path)', () => {
    expect(globsOverlap('*a'.repeat(2000), '*b'.repeat(2000))).toBe(true);
    expect(globsOverlap(`${'*/'.repeat(1500)}x`, `${'**/'.repeat(1500)}y`)).toBe(true);
    expect(globsOverlap('*a'.repeat(20), '*b'.repeat(20))).toBe(false);
  });

  it('tells a pattern from a plain path', () => {
    expect(['.e*', 'a?', '[ab]', '{a,b}', '**'].map(isGlobPattern)).toEqual([true, true, true, true, true]);
    expect(['.env', 'src/a.ts', '{a}', 'x}'].map(isGlobPattern)).toEqual([false, false, false, false]);
  });
});
