import { shellFileAccess } from '../../core/hooks/shell-file-access.js';
import { toolAction } from '../../core/hooks/tool-action.js';
import { firstMatchingRule } from '../../core/policies/tool-rules.js';

const ROOT = '/work/acme-shop';

// A recursive reader reads every file under a directory, hidden ones included (docs/agent-hooks.md, "Shell commands and files").
const refusedBy = (glob: string, command: string) =>
  firstMatchingRule([{ match: { read: glob }, verdict: 'deny' }], toolAction('Bash', { command }, ROOT)) !== null;
const reads = (command: string) => shellFileAccess(command).reads;

describe('grep searching a directory', () => {
  it.each([
    ['grep -rn KEY .', ['.', '**']],
    ['grep -r KEY', ['.', '**']],
    ['grep -R KEY src/', ['src/', 'src/**']],
    ['grep -inr KEY src lib', ['src', 'src/**', 'lib', 'lib/**']],
    ['grep -Rl KEY config', ['config', 'config/**']],
    ['egrep --recursive KEY .', ['.', '**']],
    ['fgrep --dereference-recursive KEY ./', ['./', '**']],
    ['grep -d recurse KEY .', ['.', '**']],
    ['grep --directories=recurse KEY', ['.', '**']],
    ['grep -drecurse KEY /etc', ['/etc', '/etc/**']],
    ['grep -reKEY src', ['src', 'src/**']],
    ['grep -rf patterns src', ['src', 'src/**', 'patterns']],
    ['grep -r --include=*.ts -e KEY -m 3 -A 2 src', ['src', 'src/**']],
  ])('%j reads %j', (command, paths) => {
    expect(reads(command)).toEqual(paths);
  });

  it.each([
    ['grep KEY .env', ['.env']],
    ['grep -n -i KEY .env', ['.env']],
    ['grep -ie r .env', ['.env']],
    ['grep -d skip KEY .env', ['.env']],
  ])('%j is no recursive read: %j', (command, paths) => {
    expect(reads(command)).toEqual(paths);
  });

  it('reads under the directory a cd moved to', () => {
    expect(shellFileAccess('cd app && grep -r KEY')).toEqual({ reads: ['app/.', 'app/**'], writes: [] });
  });
});

describe('rg, ag and ack, recursive by default', () => {
  it.each([
    ['rg KEY', ['.', '**/*']],
    ['rg KEY src', ['src', 'src/**/*']],
    ['rg -g *.env -t py -T js -m 3 -A 2 -B 1 -C 4 --max-depth 5 KEY src', ['src', 'src/**/*']],
    ['rg --glob *.env --type py --hidden KEY', ['.', '**']],
    ['rg -uu KEY', ['.', '**']],
    ['rg -. KEY src', ['src', 'src/**']],
    ['rg -e KEY -f patterns src', ['src', 'src/**/*', 'patterns']],
    ['rg --regexp=KEY src lib', ['src', 'src/**/*', 'lib', 'lib/**/*']],
    ['rg --files src', ['src', 'src/**/*']],
    ['rg --files', ['.', '**/*']],
    ['ag KEY .env', ['.env', '.env/**/*']],
    ['ag -G py -A 2 KEY', ['.', '**/*']],
    ['ag --hidden KEY', ['.', '**']],
    ['ack KEY lib', ['lib', 'lib/**']],
    ['ack --match KEY lib', ['lib', 'lib/**']],
  ])('%j reads %j', (command, paths) => {
    expect(reads(command)).toEqual(paths);
  });
});

describe('archivers reading what they pack', () => {
  it.each([
    ['tar czf x.tgz .', ['.', '**'], ['x.tgz']],
    ['tar -czf out.tgz src .env', ['src', 'src/**', '.env', '.env/**'], ['out.tgz']],
    ['tar cvfz out.tgz src', ['src', 'src/**'], ['out.tgz']],
    ['tar --create --file=out.tar -C config secrets', ['config/secrets', 'config/secrets/**'], ['out.tar']],
    ['tar -C dist -cf - .', ['dist/.', 'dist/**'], []],
    ['tar -cf out.tar a -C src b -C /tmp c', ['a', 'a/**', 'src/b', 'src/b/**', '/tmp/c', '/tmp/c/**'], ['out.tar']],
    ['tar -c -T list -f out.tar', ['list'], ['out.tar']],
    ['tar xzf x.tgz', ['x.tgz'], ['.']],
    ['zip -r x.zip .', ['.', '**'], ['x.zip']],
    ['zip --recurse-paths -q out.zip src .env', ['src', 'src/**', '.env', '.env/**'], ['out.zip']],
    ['zip out.zip .env', ['.env'], ['out.zip']],
  ])('%j reads %j and writes %j', (command, read, written) => {
    expect(shellFileAccess(command)).toEqual({ reads: read, writes: written });
  });
});

describe('recursive copies', () => {
  it.each([
    ['cp -r src /tmp/x', ['src', 'src/**'], ['/tmp/x', '/tmp/x/src']],
    ['cp -a config/ /tmp/', ['config/', 'config/**'], ['/tmp/', '/tmp/config']],
    ['cp --archive . /tmp/x', ['.', '**'], ['/tmp/x']],
    ['cp -Rv .env dir', ['.env', '.env/**'], ['dir', 'dir/.env']],
    ['scp -r -P 2222 . host:/x', ['.', '**'], ['host:/x']],
    ['rsync -avz src/ host:dst', ['src/', 'src/**'], ['host:dst']],
    ['rsync --recursive --exclude node_modules src host:dst', ['src', 'src/**'], ['host:dst', 'host:dst/src']],
    ['cp .env /tmp/x', ['.env'], ['/tmp/x']],
    ['rsync -vt a b', ['a'], ['b']],
  ])('%j reads %j and writes %j', (command, read, written) => {
    expect(shellFileAccess(command)).toEqual({ reads: read, writes: written });
  });
});

describe('a read rule holds for a recursive read that may reach its files', () => {
  it.each([
    ['grep -r KEY .', '.env*'],
    ['grep -rn KEY src', '.env*'],
    ['rg --hidden KEY', '.env*'],
    ['rg -uuu KEY src', '.env*'],
    ['RIPGREP_CONFIG_PATH=/tmp/rc rg KEY', '.env*'],
    ['shopt -s dotglob; rg KEY', '.env*'],
    ['rg KEY', '.github/workflows/**'],
    ['tar czf /tmp/x.tgz .', '.env*'],
    ['zip -r /tmp/x.zip .', '.env*'],
    ['cp -r . /tmp/x', '.env*'],
    ['rsync -a ./ host:x', '.env*'],
    ['grep -r KEY config', 'config/secrets/**'],
    ['tar -C config -czf /tmp/x.tgz secrets', 'config/secrets/**'],
  ])('%j is refused by a rule on %j', (command, glob) => {
    expect(refusedBy(glob, command)).toBe(true);
  });

  it('leaves a plain read of another file, and a recursive read elsewhere, alone', () => {
    expect(refusedBy('.env*', 'grep KEY README.md')).toBe(false);
    expect(refusedBy('.env*', 'cp README.md /tmp/x')).toBe(false);
    expect(refusedBy('config/secrets/**', 'tar -C dist -czf /tmp/x.tgz .')).toBe(false);
    expect(refusedBy('config/secrets/**', 'grep -r KEY src')).toBe(false);
    // rg and ag leave hidden files out unless told otherwise, as Claude's Grep is read (searched-files.ts).
    expect(refusedBy('.env*', 'rg KEY')).toBe(false);
    expect(refusedBy('.env*', 'ag KEY src')).toBe(false);
  });
});

describe('the bounds on recorded paths hold for recursive reads', () => {
  it('refuses a recursive read under a cd past what Linux opens, and bounds the characters recorded', () => {
    expect(shellFileAccess(`cd ${'d/'.repeat(2000)} && grep -r KEY ${'f'.repeat(200)}`).tooLong).toBe(true);
    expect(shellFileAccess(`tar -C ${'d/'.repeat(2100)} -cf x.tar a`).tooLong).toBe(true);
    const access = shellFileAccess(`tar -C ${'d'.repeat(4000)} -cf x.tar${' x'.repeat(4000)}`);
    expect(access.tooLong).toBe(true);
    expect(access.reads.reduce((sum, path) => sum + path.length, 0)).toBeLessThan(1.1 * 1024 * 1024);
  });
});
