import fs from 'node:fs';
import path from 'node:path';

/**
 * db/stores/ is grouped the way core/ is (ARCHITECTURE.md, "Conventions"): each store lives in
 * the folder of the core/ area whose port it serves, and a file named `postgres-<port>.ts`
 * implements the port `<Port>` declared in core/ and exports `create<Port>`. Every other file
 * (row mappers, statements, reads for the API's lists) is named for what it is, without the
 * prefix.
 */
const STORES = 'db/stores';

/** `github-sign-in-store` → `GitHubSignInStore`. */
function portName(kebab: string): string {
  return kebab
    .split('-')
    .map((word) => (word === 'github' ? 'GitHub' : word[0].toUpperCase() + word.slice(1)))
    .join('');
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

interface StoreFile {
  file: string;
  source: string;
}

/** Every way `files` break the rule, in words; `coreAreas` are core/'s folders, `corePorts` its declared types. */
function breaches(files: readonly StoreFile[], coreAreas: ReadonlySet<string>, corePorts: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const { file, source } of files) {
    const parts = path.relative(STORES, file).split(path.sep);
    if (parts.length !== 2 || !coreAreas.has(parts[0])) {
      found.push(`${file} is not in the folder of a core/ area (db/stores/<area>/)`);
      continue;
    }
    const port = /^postgres-(.+)\.ts$/.exec(parts[1]);
    if (!port) continue;
    const name = portName(port[1]);
    if (!corePorts.has(name)) found.push(`${file}: core/ declares no port ${name}`);
    if (!new RegExp(`export (async )?function create${name}\\b`).test(source)) found.push(`${file} does not export create${name}`);
  }
  return found;
}

function declaredTypes(sources: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const source of sources) for (const match of source.matchAll(/export (?:interface|type) (\w+)/g)) names.add(match[1]);
  return names;
}

describe('db/stores/ is grouped by area with one naming rule', () => {
  const areas = new Set(['release', 'github']);
  const ports = new Set(['EvidenceStore', 'DeliveryLog']);

  it('accepts a store named for the core port it implements, in its area', () => {
    const files = [
      { file: 'db/stores/release/postgres-evidence-store.ts', source: 'export function createEvidenceStore() {}' },
      { file: 'db/stores/release/release-rows.ts', source: 'export function toSnapshot() {}' },
    ];
    expect(breaches(files, areas, ports)).toEqual([]);
  });

  it('names each breach: a flat file, an unknown area, a port core/ lacks, a missing create function', () => {
    const files = [
      { file: 'db/stores/postgres-evidence-store.ts', source: 'export function createEvidenceStore() {}' },
      { file: 'db/stores/misc/helpers.ts', source: '' },
      { file: 'db/stores/release/postgres-gate-cache.ts', source: 'export function createGateCache() {}' },
      { file: 'db/stores/github/postgres-delivery-log.ts', source: 'export function createDeliveries() {}' },
    ];
    expect(breaches(files, areas, ports)).toEqual([
      'db/stores/postgres-evidence-store.ts is not in the folder of a core/ area (db/stores/<area>/)',
      'db/stores/misc/helpers.ts is not in the folder of a core/ area (db/stores/<area>/)',
      'db/stores/release/postgres-gate-cache.ts: core/ declares no port GateCache',
      'db/stores/github/postgres-delivery-log.ts does not export createDeliveryLog',
    ]);
  });

  it('holds for every file under db/stores/', () => {
    const coreAreas = new Set(
      fs
        .readdirSync('core', { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name),
    );
    const corePorts = declaredTypes(filesUnder('core').map((file) => fs.readFileSync(file, 'utf8')));
    const files = filesUnder(STORES).map((file) => ({ file, source: fs.readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(30);
    expect(breaches(files, coreAreas, corePorts)).toEqual([]);
  });
});
