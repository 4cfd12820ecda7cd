import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// `npm run typecheck` checks the studio (studio/tsconfig.json) against the response types that
// studio/types.d.ts takes from the zod schemas (ARCHITECTURE.md, "Studio"). Here the compiler runs
// on the studio as it is, then with one file changed in memory: a response field renamed in a
// schema, and a misspelt field in a page. Only the pages concerned are checked (the whole studio
// is `npm run typecheck`'s job); parsed files are shared between the programs to keep it fast.
const ROOT = path.resolve(import.meta.dirname, '../..');
const STUDIO = path.join(ROOT, 'studio');

const { config } = ts.readConfigFile(path.join(STUDIO, 'tsconfig.json'), ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(config, ts.sys, STUDIO);
const parsedFiles = new Map<string, ts.SourceFile>();

/** The studio's program, with `changes` (absolute path -> [from, to]) applied to those files' text. */
function studioProgram(changes: Record<string, [string, string]> = {}, oldProgram?: ts.Program): ts.Program {
  const host = ts.createCompilerHost(parsed.options);
  host.getSourceFile = (fileName, languageVersion) => {
    const file = path.resolve(fileName);
    const change = changes[file];
    if (change) {
      const text = fs.readFileSync(file, 'utf8');
      expect(text).toContain(change[0]);
      return ts.createSourceFile(fileName, text.replace(change[0], change[1]), languageVersion);
    }
    if (!parsedFiles.has(file)) parsedFiles.set(file, ts.createSourceFile(fileName, fs.readFileSync(file, 'utf8'), languageVersion));
    return parsedFiles.get(file);
  };
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host, oldProgram });
}

/** The diagnostics of the studio's own files, as `file(line): message`. */
function studioErrors(program: ts.Program, only?: string): string[] {
  const files = program.getSourceFiles().filter((f) => path.resolve(f.fileName).startsWith(`${STUDIO}${path.sep}`));
  return files
    .filter((f) => !only || path.resolve(f.fileName) === only)
    .flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)])
    .map((d) => {
      const where = d.file ? `${path.relative(ROOT, d.file.fileName)}(${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1})` : '';
      return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    });
}

const RELEASE_PAGE = path.join(STUDIO, 'js/pages/release.js');
const EXECUTION_PAGE = path.join(STUDIO, 'js/pages/execution.js');
let baseline: ts.Program;

it('as they are, the pages check cleanly, typed by the schemas', () => {
  baseline = studioProgram();
  const files = baseline.getSourceFiles().map((f) => path.relative(ROOT, f.fileName));
  expect(files).toEqual(expect.arrayContaining(['studio/js/pages/release.js', 'api/schemas/release-decision-schemas.ts']));
  expect([...studioErrors(baseline, RELEASE_PAGE), ...studioErrors(baseline, EXECUTION_PAGE)]).toEqual([]);
});

it('a response field renamed in a zod schema fails on the studio page that reads it', () => {
  const decision = studioProgram(
    { [path.join(ROOT, 'api/schemas/release-decision-schemas.ts')]: ['    decision_url: z.string()', '    decision_link: z.string()'] },
    baseline,
  );
  expect(studioErrors(decision, RELEASE_PAGE)).toEqual([
    expect.stringMatching(/^studio\/js\/pages\/release\.js\(\d+\): Property 'decision_url' does not exist on type/),
  ]);
  const execution = studioProgram({ [path.join(ROOT, 'api/schemas/execution-schemas.ts')]: ['  cost_cents:', '  spent_cents:'] }, baseline);
  expect(studioErrors(execution, EXECUTION_PAGE)).toEqual([
    expect.stringMatching(/^studio\/js\/pages\/execution\.js\(\d+\): Property 'cost_cents' does not exist on type/),
  ]);
});

it('a misspelt response field in a studio page fails', () => {
  const program = studioProgram(
    { [RELEASE_PAGE]: ['const targets = d.allowed_promotions;', 'const targets = d.allowed_promotion;'] },
    baseline,
  );
  expect(studioErrors(program, RELEASE_PAGE)).toEqual([
    expect.stringMatching(/^studio\/js\/pages\/release\.js\(\d+\): Property 'allowed_promotion' does not exist on type/),
  ]);
});
