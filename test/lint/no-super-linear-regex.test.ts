import fs from 'node:fs';
import { ESLint } from 'eslint';
import { regexLiteralsIn, typeScriptFilesUnder } from './support/regex-literals.js';
import { superLinearRegexes } from './support/super-linear-regexes.js';

/**
 * No super-linear regex in the server (docs/operations.md, "Regular expressions"): recheck checks
 * every regex written in these folders, whether or not user input reaches it today, and the lint
 * config's eslint-plugin-regexp rules hold them too (shown here on a fixture linted as core/).
 */
const CHECKED_FOLDERS = ['core', 'api', 'app', 'net', 'server', 'worker', 'db', 'llm'];
const FIXTURE = 'test/lint/fixtures/super-linear-regexes.ts';
/** Where the fixture pretends to be. */
const FIXTURE_AS = 'core/release/super-linear-regexes.ts';
/** The fixture's lines holding a deliberately super-linear regex, and the one holding a linear one. */
const SUPER_LINEAR_LINES = [7, 10, 13, 16];
const LINEAR_LINE = 19;

const eslint = new ESLint({ cwd: process.cwd() });
const REGEXP_RULES = new Set(['regexp/no-super-linear-backtracking', 'regexp/no-super-linear-move']);

describe('super-linear regexes', () => {
  it('a deliberately super-linear regex under core/ is reported by both checkers, a linear one by neither', async () => {
    const code = fs.readFileSync(FIXTURE, 'utf8');
    const [linted] = await eslint.lintText(code, { filePath: FIXTURE_AS });
    const eslintLines = new Set(linted.messages.filter((m) => REGEXP_RULES.has(m.ruleId ?? '')).map((m) => m.line));
    expect([...eslintLines].sort((a, b) => a - b)).toEqual(SUPER_LINEAR_LINES);

    const findings = await superLinearRegexes(regexLiteralsIn(FIXTURE_AS, code));
    expect(findings.map((f) => Number(/^[^:]+:(\d+) /.exec(f)?.[1]))).toEqual(SUPER_LINEAR_LINES);
    expect(findings[0]).toBe(`${FIXTURE_AS}:7 /^(a+)+$/ — exponential, attack string 'a' + 'a'.repeat(31) + '\\x00'`);
    expect(findings.join('\n')).not.toContain(`:${LINEAR_LINE} `);
  });

  it('reads regexes with the compiler: literals and RegExp built from literals, never a slash in a string or a comment', () => {
    const code = [
      'const a = /x+/gi; // not /y/',
      "const b = new RegExp('z\\\\d', 'u');",
      'const c = RegExp(`w`);',
      'const d = new RegExp(dynamic);',
      "const e = '/not a regex/' + 1 / 2 / 3;",
    ].join('\n');
    expect(regexLiteralsIn('core/x.ts', code)).toEqual([
      { file: 'core/x.ts', line: 1, source: 'x+', flags: 'gi' },
      { file: 'core/x.ts', line: 2, source: 'z\\d', flags: 'u' },
      { file: 'core/x.ts', line: 3, source: 'w', flags: '' },
    ]);
  });

  it(`recheck finds no super-linear regex in ${CHECKED_FOLDERS.join('/, ')}/`, async () => {
    const files = typeScriptFilesUnder(CHECKED_FOLDERS);
    const regexes = files.flatMap((file) => regexLiteralsIn(file, fs.readFileSync(file, 'utf8')));
    expect(regexes.length).toBeGreaterThan(50);
    expect(await superLinearRegexes(regexes)).toEqual([]);
  }, 240_000);
});
