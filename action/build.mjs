// Bundles the Action into one file, action/dist/index.js (committed: a runner runs it as it is,
// without npm install). `npm run build:action`; test/action/bundle.test.ts fails when the
// committed bundle differs from what this script builds from action/src.
import { build } from 'esbuild';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Options shared with the bundle test, so both build the same bytes. */
export const bundleOptions = {
  entryPoints: [path.join(root, 'action/src/index.ts')],
  bundle: true,
  platform: 'node',
  // Runners run node24; the repository's own CI and tests run Node 20.
  target: 'node20',
  format: 'esm',
  // Dependencies written as CommonJS call require() for Node built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
  legalComments: 'none',
  absWorkingDir: root,
  logLevel: 'warning',
};

export async function bundleAction(outfile = path.join(root, 'action/dist/index.js')) {
  await build({ ...bundleOptions, outfile });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  console.log(`wrote ${path.relative(root, await bundleAction())}`);
}
