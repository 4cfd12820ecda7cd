import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { ESLint } from 'eslint';
import { BUNDLE } from './support/run-action.js';

// @ts-expect-error: a plain .mjs build script without type declarations
import { bundleAction, bundleOptions } from '../../action/build.mjs';

it('the committed action/dist/index.js is what action/src builds to (run `npm run build:action`)', async () => {
  const rebuilt = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-bundle-')), 'index.js');
  await bundleAction(rebuilt);
  const [committed, fresh] = [fs.readFileSync(BUNDLE, 'utf8'), fs.readFileSync(rebuilt, 'utf8')];
  expect(committed.length).toBe(fresh.length);
  expect(committed === fresh).toBe(true);
});

describe('the Action holds nothing of the server (ARCHITECTURE.md, "Action and OIDC")', () => {
  it("bundles only its own sources and its dependencies: the API schemas' types are dropped", async () => {
    const { metafile } = await build({ ...bundleOptions, write: false, metafile: true, outfile: 'index.js' });
    const sources = Object.keys(metafile?.inputs ?? {});
    expect(sources).toContain('action/src/index.ts');
    expect(sources.filter((file) => !file.startsWith('action/src/') && !file.startsWith('node_modules/'))).toEqual([]);
    // The types themselves come from the schemas (so the Action cannot drift from them).
    expect(fs.readFileSync(path.resolve(import.meta.dirname, '../../action/src/shipgate-types.ts'), 'utf8')).toMatch(
      /import type \{[^}]+\} from '\.\.\/\.\.\/api\/schemas\/release-decision-schemas\.js'/,
    );
  });

  it('the lint lets action/src import the API schemas for their types only', async () => {
    const eslint = new ESLint({ cwd: process.cwd() });
    const problems = async (code: string) => {
      const [result] = await eslint.lintText(code, { filePath: 'action/src/wrong.ts' });
      return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
    };
    const schemas = "'../../api/schemas/release-decision-schemas.js'";
    expect(await problems(`import type { blockerSchema } from ${schemas};\nexport type X = typeof blockerSchema;\n`)).toEqual([]);
    expect(await problems(`import { blockerSchema } from ${schemas};\nexport const x = blockerSchema;\n`)).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: .*types only: `import type`/),
    ]);
    expect(await problems("import { createServer } from '../../api/create-server.js';\nexport const x = createServer;\n")).toEqual([
      expect.stringMatching(/^no-restricted-imports: .*imports nothing of the server/),
    ]);
  });
});
