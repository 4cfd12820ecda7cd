import { applyGateFile, formatGateFileProblem, GATE_FILE_MAX_PROBLEMS } from '../../core/github/gate-file-problems.js';
import { inProcessGateFileReader } from '../../core/github/gate-file-reader.js';
import { readGateFileText } from '../../core/github/gate-file-problems.js';
import { threadPoolGateFileReader } from '../../server/thread-pool-gate-file-reader.js';
import type { GateStore } from '../../core/release/release-store.js';
import { GATE_FILE_MAX_BYTES } from '../../core/release/read-gate-file.js';

/** A gate store that only counts what it is asked to save. */
function savingStore() {
  const saved: string[] = [];
  const store = { saveGate: async (repoRoot: string) => (saved.push(repoRoot), { version: {}, created: true }) } as unknown as GateStore;
  return { store, saved };
}

/** What the check run lists for a gate file (docs/operations.md, "Regular expressions"). */
async function problemsOf(text: string): Promise<string[]> {
  const { store, saved } = savingStore();
  const problems = await applyGateFile(store, inProcessGateFileReader, 'acme/app', text);
  expect(saved).toEqual(problems.length === 0 ? ['acme/app'] : []);
  return problems.map(formatGateFileProblem);
}

/** `count` environments, each with a key the schema does not know: one problem each, one line each. */
const unknownKeys = (count: number) =>
  `required_checks: [ci]\nenvironments:\n${Array.from({ length: count }, (_, i) => `  e${i}: {x: 1}\n`).join('')}`;

describe('problems of .github/shipgate.yml', () => {
  it('names the line of each schema problem, and of each YAML syntax error', async () => {
    expect(await problemsOf('required_checks: [ci]\nevidence_max_age_seconds: soon\n')).toEqual([
      '.github/shipgate.yml:2: evidence_max_age_seconds: Invalid input: expected number, received string',
    ]);
    expect(await problemsOf(unknownKeys(3))).toEqual([
      '.github/shipgate.yml:3: environments.e0: Unrecognized key: "x"',
      '.github/shipgate.yml:4: environments.e1: Unrecognized key: "x"',
      '.github/shipgate.yml:5: environments.e2: Unrecognized key: "x"',
    ]);
    expect(await problemsOf('required_checks: [ci\n')).toEqual([expect.stringMatching(/^\.github\/shipgate\.yml:\d+: /)]);
  });

  it(`lists at most ${GATE_FILE_MAX_PROBLEMS}: the first ones, then how many more there are`, async () => {
    const listed = await problemsOf(unknownKeys(25));
    expect(listed).toHaveLength(GATE_FILE_MAX_PROBLEMS);
    expect(listed[18]).toBe('.github/shipgate.yml:21: environments.e18: Unrecognized key: "x"');
    expect(listed[19]).toBe('.github/shipgate.yml: 6 more problems not listed (at most 20 are reported): fix these first.');
    expect(await problemsOf(unknownKeys(20))).toHaveLength(20);
    expect((await problemsOf(unknownKeys(20)))[19]).toBe('.github/shipgate.yml:22: environments.e19: Unrecognized key: "x"');
  });

  it('a required check pinned to its App is a valid entry; a bad one is a problem at its line', async () => {
    expect(await problemsOf('required_checks:\n  - lint\n  - {name: build, app: github-actions}\n  - {name: e2e, app: 15368}\n')).toEqual(
      [],
    );
    expect(await problemsOf('required_checks:\n  - lint\n  - name: build\n    app: ""\n')).toEqual([
      expect.stringMatching(/^\.github\/shipgate\.yml:4: required_checks\.1\.app: The GitHub App that must report the check: its slug/),
    ]);
    expect(await problemsOf('required_checks:\n  - {name: build}\n')).toEqual([
      '.github/shipgate.yml:2: required_checks.0: An object entry needs `app` (the GitHub App that must report the check), `paths` (globs: required only when the change touches them), or both; a check any source reports, always required, is its plain name.',
    ]);
    expect(await problemsOf('required_checks:\n  - {name: e2e, paths: ["src/**"]}\nskipped_is_success: false\n')).toEqual([]);
    expect(await problemsOf('required_checks:\n  - name: e2e\n    paths: []\n')).toEqual([
      expect.stringMatching(/^\.github\/shipgate\.yml:3: required_checks\.0\.paths: /),
    ]);
  });

  it('an empty file is the default gate; a valid one is saved', async () => {
    expect(await problemsOf('')).toEqual([]);
    expect(await problemsOf('required_checks: [ci]\n')).toEqual([]);
  });

  it('places hundreds of problems in a 31 KB file in one parse (issue 34: one parse per problem took 144 s)', async () => {
    const text = unknownKeys(2_000).slice(0, 31 * 1024);
    const started = performance.now();
    const listed = await problemsOf(text.slice(0, text.lastIndexOf('\n') + 1));
    expect(listed).toHaveLength(20);
    expect(listed[19]).toMatch(/^\.github\/shipgate\.yml: \d{4} more problems not listed/);
    // About 100 ms on the development machine (the schema's own issues included).
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('reports a duplicate key as the YAML parser did, and checks 64 KiB of keys in one pass (its own check took seconds)', async () => {
    expect(await problemsOf('required_checks: [ci]\nrequired_checks: [x]\nenvironments: {a: {}, a: {}}\n')).toEqual([
      '.github/shipgate.yml:2: Map keys must be unique at line 2, column 1:',
      '.github/shipgate.yml:3: Map keys must be unique at line 3, column 23:',
    ]);
    let keys = '{k0';
    for (let i = 1; keys.length < 64 * 1024 - 16; i += 1) keys += `,k${i.toString(36)}`;
    keys += '}';
    const started = performance.now();
    const listed = await problemsOf(keys);
    // About 0.25 s on the 2-core development machine; with the parser's own duplicate check, 2.5 s.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatch(/^\.github\/shipgate\.yml:1: Unrecognized keys: "k0", "k1", /);
  });

  it('an alias expanding beyond reason is a problem of the file, not a failed job', async () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      ),
    ].join('\n');
    expect(await problemsOf(bomb)).toEqual(['.github/shipgate.yml:1: Excessive alias count indicates a resource exhaustion attack']);
  });

  it(`refuses a file over ${GATE_FILE_MAX_BYTES} bytes without parsing it, naming the limit`, async () => {
    const big = `required_checks: [ci]\n# ${'x'.repeat(GATE_FILE_MAX_BYTES)}\n`;
    expect(await problemsOf(big)).toEqual([
      `.github/shipgate.yml: The file is ${big.length} bytes; shipgate reads a gate file of at most 65536 bytes (64 KiB).`,
    ]);
    // Counted in bytes of UTF-8: 30,000 three-byte characters are 90,000 bytes.
    expect(await problemsOf(`# ${'€'.repeat(30_000)}\n`)).toEqual([expect.stringContaining('The file is 90003 bytes')]);
    // Exactly the limit is read.
    const atLimit = `required_checks: [ci]\n#${'x'.repeat(GATE_FILE_MAX_BYTES - 'required_checks: [ci]\n#\n'.length)}\n`;
    expect(Buffer.byteLength(atLimit)).toBe(GATE_FILE_MAX_BYTES);
    expect(await problemsOf(atLimit)).toEqual([]);
  });

  it("the server's reader answers in its thread what readGateFileText answers here", async () => {
    const reader = threadPoolGateFileReader();
    try {
      for (const text of ['required_checks: [ci]\n', unknownKeys(25), 'required_checks: [ci\n', '']) {
        expect(await reader.read(text)).toEqual(readGateFileText(text));
      }
    } finally {
      await reader.close();
    }
  });
});
