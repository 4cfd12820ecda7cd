import { readGateFileText } from '../../core/github/gate-file-problems.js';
import { GLOB_BUDGET } from '../../core/glob-budget.js';
import { DEFAULT_GATE, gateSchema } from '../../core/release/gate.js';
import { MAX_EXPANDED_LENGTH } from '../../core/linear-glob.js';

const issues = (fields: object) => {
  const parsed = gateSchema.safeParse(fields);
  return parsed.success ? [] : parsed.error.issues.map((i) => ({ loc: i.path.join('.'), msg: i.message }));
};

describe('the gate’s rules and protected paths', () => {
  it('protected paths are on by default with the gate’s own inputs; rules are empty', () => {
    expect(DEFAULT_GATE.protected_paths).toEqual({
      enabled: true,
      paths: ['.github/workflows/**', '.github/actions/**', '.github/shipgate.yml', '**/CODEOWNERS'],
      approvals: 1,
      permission: 'maintain',
    });
    expect(DEFAULT_GATE.rules).toEqual([]);
    expect(gateSchema.parse({ protected_paths: { enabled: false } }).protected_paths.paths).toHaveLength(4);
  });

  it('refuses a repeated name at the later rule, a team that is not org/slug, a glob shipgate cannot read and a negation', () => {
    expect(issues({ rules: [{ name: 'a' }, { name: 'b' }, { name: 'A' }] })).toEqual([
      { loc: 'rules.2.name', msg: 'Rule names must be unique: `A` is used before.' },
    ]);
    expect(issues({ rules: [{ name: 'a', require: { approvers: { teams: ['@acme/sre'] } } }] })).toEqual([
      { loc: 'rules.0.require.approvers.teams.0', msg: 'A team as `org/slug` (e.g. `acme/sre`), without `@`.' },
    ]);
    expect(issues({ rules: [{ name: 'a', if: { paths: ['infra/[abc'] } }] })[0]).toMatchObject({
      loc: 'rules.0.if.paths.0',
      msg: 'Not a glob shipgate reads: a `[` is not closed by `]`.',
    });
    expect(issues({ rules: [{ name: 'a', if: { paths_ignore: ['src/[z-a]'] } }] })[0]).toMatchObject({
      loc: 'rules.0.if.paths_ignore.0',
      msg: 'Not a glob shipgate reads: the set `[z-a]` has a range whose start is past its end.',
    });
    expect(issues({ protected_paths: { paths: ['!docs/**'] } })[0]).toMatchObject({
      loc: 'protected_paths.paths.0',
      msg: expect.stringContaining('paths_ignore'),
    });
    expect(issues({ rules: [{ name: 'protected_paths' }] })[0]).toMatchObject({ loc: 'rules.0.name' });
    expect(issues({ rules: Array.from({ length: 101 }, (_, i) => ({ name: `r${i}` })) })[0]).toMatchObject({ loc: 'rules' });
    expect(issues({ protected_paths: { permission: 'write' } })[0]).toMatchObject({ loc: 'protected_paths.permission' });
  });

  it('.github/shipgate.yml: a rule’s problem is reported at its line', () => {
    const text = [
      'rules:',
      '  - name: infra needs SRE',
      '    if: {paths: ["infra/**"]}',
      '    require: {approvals: 2, approvers: {teams: [acme/sre]}}',
      '  - name: infra needs SRE',
      '    require:',
      '      approvers:',
      '        teams: [sre]',
    ].join('\n');
    const reading = readGateFileText(text);
    expect('problems' in reading && reading.problems).toEqual([
      {
        file: '.github/shipgate.yml',
        line: 8,
        message: 'rules.1.require.approvers.teams.0: A team as `org/slug` (e.g. `acme/sre`), without `@`.',
      },
      { file: '.github/shipgate.yml', line: 5, message: 'rules.1.name: Rule names must be unique: `infra needs SRE` is used before.' },
    ]);
    expect(issues({ rules: ['x', { name: 'a' }, null] }).map((i) => i.loc)).toEqual(['rules.0', 'rules.2']);
  });

  it('.github/shipgate.yml nested 30,000 levels deep is refused at its line, saying so (the parser ran out of stack)', () => {
    const text = `rules:\n  - name: x\n    if: {paths: ${'['.repeat(30_000)}${']'.repeat(30_000)}}\n`;
    expect(readGateFileText(text)).toEqual({
      problems: [{ file: '.github/shipgate.yml', line: 3, message: 'Lists and mappings nest deeper than 100 levels.' }],
    });
    // 100 levels are read (and judged by the gate's schema).
    expect(JSON.stringify(readGateFileText(`a: ${'['.repeat(100)}${']'.repeat(100)}\n`))).not.toContain('nest deeper');
  });
  it('refuses a glob whose braces expand past 2,048 characters, and a gate whose globs expand past 128 KiB where they do', () => {
    // 16 alternatives of 130 characters: 2,080.
    const wide = `{a,b}{c,d}{e,f}{g,h}/${'x'.repeat(125)}`;
    expect(issues({ rules: [{ name: 'a', if: { paths: [wide] } }] })).toEqual([
      {
        loc: 'rules.0.if.paths.0',
        msg: `Not a glob shipgate reads: its braces expand to more than ${MAX_EXPANDED_LENGTH} characters of globs.`,
      },
    ]);
    // Each 16 x 126 = 2,016 characters: 65 of them pass the budget, at the 66th glob of the gate.
    const glob = (i: number) => `{a,b}{c,d}{e,f}{g,h}/${'x'.repeat(117)}${String(i).padStart(4, '0')}`;
    const globs = (from: number, count: number) => Array.from({ length: count }, (_, i) => glob(from + i));
    const under = { required_checks: [{ name: 'ci', paths: globs(0, 5) }], rules: [{ name: 'a', if: { paths: globs(5, 60) } }] };
    expect(issues(under)).toEqual([]);
    const over = { ...under, rules: [...under.rules, { name: 'b', if: { paths_ignore: globs(100, 2) } }] };
    expect(issues(over)).toEqual([
      {
        loc: 'rules.1.if.paths_ignore.0',
        msg: `The gate's globs, braces expanded, add up to more than ${GLOB_BUDGET} characters here: list fewer globs, or fewer alternatives in braces.`,
      },
    ]);
  });
});
