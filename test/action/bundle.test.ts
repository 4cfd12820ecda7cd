import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUNDLE } from './support/run-action.js';

// @ts-expect-error: a plain .mjs build script without type declarations
import { bundleAction } from '../../action/build.mjs';

it('the committed action/dist/index.js is what action/src builds to (run `npm run build:action`)', async () => {
  const rebuilt = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-bundle-')), 'index.js');
  await bundleAction(rebuilt);
  const [committed, fresh] = [fs.readFileSync(BUNDLE, 'utf8'), fs.readFileSync(rebuilt, 'utf8')];
  expect(committed.length).toBe(fresh.length);
  expect(committed === fresh).toBe(true);
});
