import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * One way to GitHub (ARCHITECTURE.md, "GitHub App"): Probot is built in app/create-probot.ts
 * only, so every octokit shipgate uses has the same retry policy and GitHub headers.
 */
const CONSTRUCTS = [/\bnew\s+Probot\s*\(/, /import\s*\{[^}]*\bcreateProbot\b[^}]*\}\s*from\s*['"]probot['"]/];

function constructsProbot(text: string): boolean {
  return CONSTRUCTS.some((pattern) => pattern.test(text));
}

/** Source files in the working tree outside test/ (tracked or new; node_modules and the Action's bundle are not). */
function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' });
  return listed
    .split('\n')
    .filter((file) => /\.(ts|js|mjs)$/.test(file) && !file.startsWith('test/') && !file.startsWith('action/dist/'))
    .filter((file) => fs.existsSync(file));
}

describe('Probot is constructed in one place', () => {
  it('recognises a construction, and not a call of our own createProbot', () => {
    expect(constructsProbot('const p = new Probot({ appId, privateKey });')).toBe(true);
    expect(constructsProbot("import { createProbot } from 'probot';")).toBe(true);
    expect(constructsProbot('import { Probot, createProbot as make } from "probot";')).toBe(true);
    expect(constructsProbot("import { createProbot } from './create-probot.js';\nconst p = createProbot(credentials);")).toBe(false);
    expect(constructsProbot("import type { Probot } from 'probot';")).toBe(false);
  });

  it('happens only in app/create-probot.ts', () => {
    const constructing = sourceFiles().filter((file) => constructsProbot(fs.readFileSync(file, 'utf8')));
    expect(constructing).toEqual(['app/create-probot.ts']);
  });
});
