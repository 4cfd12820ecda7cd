import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The package folder of the real agent CLIs, apart from shipgate's own dependencies (README, "Running the tests"). */
export const AGENTS_DIR = path.resolve(import.meta.dirname, '..');
const modules = path.join(AGENTS_DIR, 'node_modules');

/** The native binaries, run directly: the npm packages' launchers need their postinstall, which is not run. */
export const CLAUDE_BIN = path.join(modules, '@anthropic-ai/claude-code-linux-x64/claude');
export const COPILOT_BIN = path.join(modules, '@github/copilot-linux-x64/copilot');
/** Gemini CLI is plain JavaScript, run with this Node. */
export const GEMINI_JS = path.join(modules, '@google/gemini-cli/bundle/gemini.js');

const LOCK = path.join(AGENTS_DIR, '.installing');

function installed(): boolean {
  return [CLAUDE_BIN, COPILOT_BIN, GEMINI_JS].every((file) => fs.existsSync(file));
}

/**
 * Installs test/agents' packages when they are missing (`.ci/run` installs them first): one jest
 * worker installs (a lock directory), the others wait for it. Install scripts are not run: the
 * binaries ship in the platform packages.
 */
export async function ensureAgentClis(): Promise<void> {
  if (installed()) return;
  let owner = false;
  try {
    fs.mkdirSync(LOCK);
    owner = true;
  } catch {
    // Another worker is installing.
  }
  if (owner) {
    try {
      const npm = spawnSync('npm', ['ci', '--prefix', AGENTS_DIR, '--ignore-scripts', '--no-audit', '--no-fund'], { encoding: 'utf8' });
      if (npm.status !== 0) throw new Error(`npm ci --prefix test/agents failed (${npm.status}): ${npm.stderr.slice(-2000)}`);
    } finally {
      fs.rmSync(LOCK, { recursive: true, force: true });
    }
  }
  const deadline = Date.now() + 10 * 60_000;
  while (!installed() && fs.existsSync(LOCK) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
  if (!installed()) throw new Error(`The agent CLIs are not installed in ${modules}: run npm ci --prefix test/agents`);
}
