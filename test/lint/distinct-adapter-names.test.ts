import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A port and its adapter never share a file name (ARCHITECTURE.md, "Folders and what each may
 * import"): `release-store.ts` open in two tabs, or in a stack trace, must say which one it is.
 */
const ADAPTER_FOLDERS = ['db', 'api', 'app', 'llm', 'net', 'server', 'worker'];

/** The file name without its extension: `db/stores/x.ts` and `core/y/x.js` share `x`. */
function baseName(file: string): string {
  return path.basename(file).replace(/(\.d)?\.(ts|js|mjs|cjs)$/, '');
}

/** Each name used both in core/ and in an adapter folder, with every file that uses it. */
function sharedNames(files: readonly string[]): Record<string, string[]> {
  const top = (file: string) => file.split('/')[0];
  const core = new Set(files.filter((file) => top(file) === 'core').map(baseName));
  const shared: Record<string, string[]> = {};
  for (const file of files) {
    if (!ADAPTER_FOLDERS.includes(top(file)) || !core.has(baseName(file))) continue;
    shared[baseName(file)] ??= files.filter((other) => top(other) === 'core' && baseName(other) === baseName(file));
    shared[baseName(file)].push(file);
  }
  return shared;
}

/** Source files in the working tree outside test/ (tracked or new; node_modules is not listed). */
function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' });
  return listed
    .split('\n')
    .filter((file) => /\.(ts|js|mjs|cjs)$/.test(file) && !file.startsWith('test/'))
    .filter((file) => fs.existsSync(file));
}

describe('ports and adapters have names that tell them apart', () => {
  it('finds a name shared by core/ and any adapter folder, and nothing else', () => {
    const files = [
      'core/release/release-store.ts',
      'db/stores/release-store.ts',
      'core/config.ts',
      'server/config.ts',
      'core/agent/tools/public-web.ts',
      'net/public-web.js',
      'core/release/record-evidence.ts',
      'action/src/record-evidence.ts',
      'test/release/record-evidence.ts',
      'bench/lib/record-evidence.ts',
      'db/stores/release/postgres-release-store.ts',
      'api/routers/policy-routes.ts',
      'app/routers/policy-routes.ts',
    ];
    expect(sharedNames(files)).toEqual({
      'release-store': ['core/release/release-store.ts', 'db/stores/release-store.ts'],
      config: ['core/config.ts', 'server/config.ts'],
      'public-web': ['core/agent/tools/public-web.ts', 'net/public-web.js'],
    });
  });

  it('holds for every source file outside test/', () => {
    expect(sharedNames(sourceFiles())).toEqual({});
  });
});
