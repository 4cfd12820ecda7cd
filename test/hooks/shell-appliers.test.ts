import { shellFileAccess } from '../../core/hooks/shell-file-access.js';
import { toolAction } from '../../core/hooks/tool-action.js';
import { firstMatchingRule, type ToolRule } from '../../core/policies/tool-rules.js';

const ROOT = '/work/acme-shop';
const rules: ToolRule[] = [{ match: { write: '.github/workflows/**' }, verdict: 'ask' }];
const asked = (command: string) => firstMatchingRule(rules, toolAction('Bash', { command }, ROOT)) !== null;

// An agent wrote a patch or an archive (allowed), then applied it: the workflow changed without asking (docs/agent-hooks.md, "Shell commands and files").
describe('applying a patch or an archive writes what it holds', () => {
  it.each([
    ['git apply ci.patch', ['ci.patch'], ['.']],
    ['git apply --index -p1 ci.patch', ['ci.patch'], ['.']],
    ['git -C sub apply ci.patch', ['sub/ci.patch'], ['sub/.']],
    ['git apply --stat ci.patch', ['ci.patch'], []],
    ['git apply --check ci.patch', ['ci.patch'], []],
    ['git am 0001-ci.patch', ['0001-ci.patch'], ['.']],
    ['patch -p1 < ci.patch', ['ci.patch'], ['.']],
    ['patch -p1 -i ci.patch', ['ci.patch'], ['.']],
    ['patch -d .github -p1 -i ci.patch', ['ci.patch'], ['.github']],
    ['patch README.md ci.patch', ['ci.patch'], ['README.md']],
    ['patch -o out.md README.md ci.patch', ['ci.patch'], ['out.md']],
    ['patch --dry-run -p1 -i ci.patch', ['ci.patch'], []],
    ['tar xzf ci.tgz', ['ci.tgz'], ['.']],
    ['tar -xf ci.tar -C .github', ['ci.tar'], ['.github']],
    ['tar -xOf ci.tar', ['ci.tar'], []],
    ['tar tzf ci.tgz', ['ci.tgz'], []],
    ['unzip ci.zip', ['ci.zip'], ['.']],
    ['unzip -o ci.zip -d .github/workflows', ['ci.zip'], ['.github/workflows']],
    ['unzip -l ci.zip', ['ci.zip'], []],
  ])('%j reads %j and writes %j', (command, reads, writes) => {
    const access = shellFileAccess(command);
    expect([...access.reads].sort()).toEqual([...reads].sort());
    expect(access.writes).toEqual(writes);
  });

  it.each(['git apply ci.patch', 'patch -p1 < ci.patch', 'tar xzf ci.tgz', 'unzip ci.zip', 'cd .github && tar xf ../ci.tar'])(
    '%j is asked by a write rule on the workflows',
    (command) => {
      expect(asked(command)).toBe(true);
    },
  );

  it('leaves what writes only a named file, or nothing, alone', () => {
    expect(asked('patch README.md ci.patch')).toBe(false);
    expect(asked('git apply --stat ci.patch')).toBe(false);
    expect(asked('unzip -l ci.zip')).toBe(false);
  });
});
