import { failure, KEY, useHostileShipgate } from './support/hostile-shipgate.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAction } from './support/run-action.js';
import { agentSession, hooksFile, json, REPO, SESSION } from './support/fake-shipgate.js';

// The bundled Action in mode session with agent, against a fake "shipgate" that names where to
// write (a black-box probe found an absolute path, ../ and .github/workflows/ all written): the
// Action writes only the agent's own settings file, inside the workspace, never replaces a file
// there that is not JSON, and hands nothing on (outputs, SHIPGATE_TOKEN) when it refuses.
const SESSIONS = 'POST /api/v1/agent-sessions';
const HOOKS = `GET /api/v1/agent-sessions/${SESSION}/hooks`;

const hostile = useHostileShipgate();

describe("mode session with agent: the Action writes only the agent's own settings file, inside the workspace", () => {
  let parent: string;
  let workspace: string;
  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'shipgate-hostile-'));
    workspace = path.join(parent, 'workspace');
    fs.mkdirSync(workspace);
    hostile.fake.answers[SESSIONS] = json(agentSession(hostile.fake.url), 201);
  });
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  const session = (agent = 'claude-code') =>
    runAction({ 'api-url': hostile.fake.url, 'api-key': KEY, repository: REPO, mode: 'session', agent }, { workspace });
  /** Every file under `dir`, relative to it. */
  const files = (dir: string) =>
    (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();

  it('writes .claude/settings.json when shipgate names it (the control)', async () => {
    hostile.fake.answers[HOOKS] = json(hooksFile(hostile.fake.url, 'claude-code'));
    const run = await session();
    expect(run.code).toBe(0);
    expect(files(parent)).toEqual([path.join('workspace', '.claude', 'settings.json')]);
    expect(run.exported).toEqual({ SHIPGATE_TOKEN: agentSession(hostile.fake.url).token });
  });

  it.each([
    ['an absolute path', () => path.join(parent, 'absolute.json')],
    ['a path out of the workspace', () => '../escaped.json'],
    ['a workflow file', () => '.github/workflows/evil.yml'],
    ["another agent's file", () => '.gemini/settings.json'],
    ['a path that resolves to it only through ..', () => '.claude/../.claude/settings.json'],
  ])('refuses %s, writing nothing and handing nothing on', async (_name, where) => {
    const named = where();
    hostile.fake.answers[HOOKS] = json(hooksFile(hostile.fake.url, 'claude-code', { path: named }));
    const run = await session();
    expect(run.code).toBe(1);
    expect(failure(run)).toEqual([
      `::error::shipgate named ${named} for claude-code's hook configuration, not .claude/settings.json: refused, nothing was written.`,
    ]);
    expect(files(parent)).toEqual([]);
    expect([run.exported, run.outputs]).toEqual([{}, {}]);
  });

  it('refuses an answer for another agent, and one naming no path', async () => {
    hostile.fake.answers[HOOKS] = json(hooksFile(hostile.fake.url, 'gemini'));
    const other = await session();
    expect(failure(other)).toEqual([expect.stringContaining("shipgate answered gemini's hook configuration, not claude-code's")]);
    hostile.fake.answers[HOOKS] = json(hooksFile(hostile.fake.url, 'claude-code', { path: undefined }));
    const none = await session();
    expect(none.log).not.toMatch(/TypeError|ERR_INVALID_ARG_TYPE|Unexpected error/);
    expect(failure(none)).toEqual([
      expect.stringContaining(
        'shipgate answered something that is not a hook configuration to read the claude-code hook configuration of agent session ' +
          `${SESSION}: path is missing`,
      ),
    ]);
    expect(files(parent)).toEqual([]);
  });

  it('never replaces an existing settings file that is not JSON', async () => {
    hostile.fake.answers[HOOKS] = json(hooksFile(hostile.fake.url, 'claude-code'));
    fs.mkdirSync(path.join(workspace, '.claude'));
    const own = '// my settings\n{ "permissions": { "allow": ["Bash(npm test)"] } }\n';
    fs.writeFileSync(path.join(workspace, '.claude/settings.json'), own);
    const run = await session();
    expect(run.code).toBe(1);
    expect(failure(run)).toEqual([
      '::error::.claude/settings.json is in the workspace but is not a JSON object: the Action does not replace it. ' +
        "Make it JSON (shipgate's hooks are added beside what it holds) or remove it.",
    ]);
    expect(fs.readFileSync(path.join(workspace, '.claude/settings.json'), 'utf8')).toBe(own);
    expect([run.exported, run.outputs]).toEqual([{}, {}]);
  });

  it('does not write through a settings directory that links out of the workspace', async () => {
    hostile.fake.answers[HOOKS] = json(hooksFile(hostile.fake.url, 'claude-code'));
    fs.mkdirSync(path.join(parent, 'elsewhere'));
    fs.symlinkSync(path.join(parent, 'elsewhere'), path.join(workspace, '.claude'));
    const run = await session();
    expect(run.code).toBe(1);
    expect(failure(run)).toEqual([expect.stringContaining('.claude/settings.json leads out of the workspace')]);
    expect(fs.readdirSync(path.join(parent, 'elsewhere'))).toEqual([]);
  });
});
