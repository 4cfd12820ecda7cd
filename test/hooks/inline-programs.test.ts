import { MAX_INLINE_PATHS } from '../../core/hooks/inline-programs.js';
import { toolAction } from '../../core/hooks/tool-action.js';
import { PROBE_ROOT as ROOT, ruleIndex } from './support/probe-rules.js';

// An interpreter's inline program: a security probe read `.env` and pushed with --force through them (docs/agent-hooks.md, "Shell commands and files").
const rule = (command: string) => ruleIndex(command);

describe("what an interpreter's inline program plainly names", () => {
  it.each([
    `python3 -c "print(open('.env').read())"`,
    `python3.12 -Ic "print(open('config/.env.local').read())"`,
    `node -e "console.log(require('fs').readFileSync('.env', 'utf8'))"`,
    `node --eval="require('fs').readFileSync('.env')"`,
    `perl -e 'open F, ".env"; print <F>'`,
    `ruby -e 'puts File.read(".env")'`,
    `php -r 'echo file_get_contents(".env");'`,
    `awk 'BEGIN { while ((getline l < ".env") > 0) print l }'`,
  ])('%j reads the file it names', (command) => {
    expect(rule(command)).toBe(1);
  });

  it('writes the file it names', () => {
    expect(rule(`python3 -c "open('.github/workflows/ci.yml', 'w').write('on: push')"`)).toBe(2);
    expect(rule(`python3 -c "import os; os.makedirs(os.path.join('.github', 'workflows'))"`)).toBe(2);
  });

  it.each([
    `python -c 'import os; os.system("git push --force")'`,
    `python3 -c "import subprocess; subprocess.run(['git', 'push', '--force'], check=True)"`,
    `node -pe "require('child_process').execSync('git push --force origin main')"`,
    "perl -le 'print `git push --force`'",
    `awk 'BEGIN { system("git push --force") }'`,
  ])('%j runs the shell line it hands over', (command) => {
    expect(rule(command)).toBe(0);
  });

  it('reads a handed-over shell line for its files too', () => {
    expect(rule(`node -pe "require('child_process').execSync('cat .env').toString()"`)).toBe(1);
    expect(rule(`ruby -e 'puts \`head -n 3 .env\`'`)).toBe(1);
  });

  it.each([
    `python3 -c "import sys; print(open(sys.argv[1]).read())" .env`,
    `node -e "console.log(require('fs').readFileSync(process.argv[1], 'utf8'))" .env`,
    `perl -ne print .env`,
    `ruby -ne 'print' config/.env.local`,
    `python3 - .env <<< 'import sys; print(open(sys.argv[1]).read())'`,
  ])('%j hands the program a file as its argument: it may read it', (command) => {
    expect(rule(command)).toBe(1);
  });

  it.each([
    `python3 -c "import json, sys; print(json.load(sys.stdin)['version'])"`,
    `node -e "console.log(process.argv)" -- --flag value`,
    `python3 -c "print(', '.join(['a', 'b']))"`,
    `python3 -c "print('.'.join(['a', 'b']))"`,
    `python3 script.py -c "open('.env')"`,
    `python3 -m http.server 8000`,
    `awk -F, '{ print $1 }' data.csv`,
  ])('%j names nothing a rule holds', (command) => {
    expect(rule(command)).toBeNull();
  });
});

it('refuses an inline program naming more paths than shipgate compares', () => {
  const program = (n: number) => `python3 -c "${Array.from({ length: n }, (_, i) => `'a/${i}.c'`).join(',')}"`;
  expect(toolAction('Bash', { command: program(MAX_INLINE_PATHS) }, ROOT).malformed).toBeUndefined();
  expect(toolAction('Bash', { command: program(MAX_INLINE_PATHS + 1) }, ROOT).malformed).toMatch(/more paths than shipgate reads/);
});

describe('what a here-document or `<<<` gives a shell or an interpreter to run', () => {
  it.each([
    ["python3 - <<'EOF'\nprint(open('.env').read())\nEOF", 1],
    ["python3 <<'EOF'\nimport os\nos.system('git push --force')\nEOF", 0],
    ["node <<< \"require('fs').readFileSync('.env')\"", 1],
    ["sh <<< 'git push --force'", 0],
    ["bash -s <<< 'git push --force'", 0],
    ["bash <<'EOF'\ngit push --force\nEOF", 0],
    ['bash <<-EOF\n\tcat .env\n\tEOF', 1],
  ])('%j', (command, index) => {
    expect(rule(command)).toBe(index);
  });

  it.each([
    "python3 script.py <<'EOF'\nprint(open('.env').read())\nEOF",
    "bash script.sh <<< 'git push --force'",
    "cat > notes.md <<'EOF'\nopen('.env')\nEOF",
  ])('%j hands its input to no program as one: data, not run', (command) => {
    expect(rule(command)).toBeNull();
  });

  it("reads a here-document's delimiter as no file, and writes where it is redirected", () => {
    const action = toolAction('Bash', { command: "cat <<'EOF' > .github/workflows/ci.yml\non: push\nEOF" }, ROOT);
    expect(action.reads).toEqual([]);
    expect(action.writes).toEqual(['.github/workflows/ci.yml']);
  });

  it('refuses a line whose here-documents would take over 1 MiB to find, rather than scan it again and again', () => {
    const action = toolAction('Bash', { command: `cat ${'<<A '.repeat(2000)}\n${'x\n'.repeat(100_000)}` }, ROOT);
    expect(action.malformed).toMatch(/1024 KiB of here-documents/);
  });
});
