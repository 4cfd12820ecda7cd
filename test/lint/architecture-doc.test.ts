import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Top-level folders under version control (node_modules, data and coverage directories are not). */
function trackedTopLevelFolders(): string[] {
  const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  return [...new Set(files.filter((file) => file.includes('/')).map((file) => file.split('/')[0]))].sort();
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = `${entry.parentPath}/${entry.name}`;
    return entry.isFile() && /\.(ts|js|mjs)$/.test(entry.name) ? [file] : [];
  });
}

describe('ARCHITECTURE.md', () => {
  const architecture = fs.readFileSync('ARCHITECTURE.md', 'utf8');

  it('names every top-level folder', () => {
    const folders = trackedTopLevelFolders();
    expect(folders).toEqual(expect.arrayContaining(['core', 'db', 'api', 'server', 'worker', 'test']));
    expect(folders.filter((folder) => !architecture.includes(`\`${folder}/\``))).toEqual([]);
  });

  it('stays a map of the code, not a journal: at most 300 lines', () => {
    expect(architecture.trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  });

  it('is what code cites: no reference to a design document outside the repository', () => {
    const runtime = ['core', 'db', 'api', 'app', 'server', 'worker', 'llm', 'net'].filter((dir) => fs.existsSync(dir));
    const citing = runtime.flatMap(sourceFiles).filter((file) => fs.readFileSync(file, 'utf8').includes('DESIGN \u00a7'));
    expect(citing).toEqual([]);
  });
});
