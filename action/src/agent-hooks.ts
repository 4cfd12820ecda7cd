import * as core from '@actions/core';
import fs from 'node:fs';
import path from 'node:path';
import { ActionError } from './action-error.js';
import { readHookSettingsFile } from './answers.js';
import type { ShipgateClient } from './http-client.js';
import type { SessionAgent } from './session-inputs.js';
import type { AgentSession, HookSettingsFile } from './shipgate-types.js';

type Settings = Record<string, unknown>;
type HookLists = Record<string, unknown[]>;

const isObject = (value: unknown): value is Settings => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The handed-out settings merged into what the file already holds (a project's own
 * `.claude/settings.json` keeps its permissions and other hooks): per hook event, shipgate's
 * entries replace earlier ones of shipgate (same JSON) and follow the project's own.
 */
function merged(existing: unknown, handedOut: Settings): Settings {
  if (!isObject(existing)) return handedOut;
  const ours = (handedOut.hooks ?? {}) as HookLists;
  const theirs = (isObject(existing.hooks) ? existing.hooks : {}) as HookLists;
  const hooks: HookLists = { ...theirs };
  for (const [event, entries] of Object.entries(ours)) {
    const own = new Set(entries.map((entry) => JSON.stringify(entry)));
    hooks[event] = [...(Array.isArray(theirs[event]) ? theirs[event] : []).filter((entry) => !own.has(JSON.stringify(entry))), ...entries];
  }
  return { ...existing, ...handedOut, hooks };
}

/** The one file the Action writes for each agent, relative to the workspace (docs/action.md): whatever shipgate names. */
export const HOOK_FILES: Record<SessionAgent, string> = {
  'claude-code': '.claude/settings.json',
  copilot: '.github/hooks/shipgate.json',
  gemini: '.gemini/settings.json',
};

const inside = (root: string, file: string) => file === root || file.startsWith(`${root}${path.sep}`);

/**
 * The agent's file in the workspace, after checking that writing it stays inside: no directory on
 * the way may lead out (a symbolic link a checkout brought), and the file, when there, is a plain
 * file that is not a link.
 */
function fileInWorkspace(workspace: string, relative: string): string {
  const root = fs.realpathSync(workspace);
  const target = path.join(root, relative);
  const leadsOut = () =>
    new ActionError(`${relative} leads out of the workspace (through a symbolic link): the Action writes only inside it.`);
  let existing = path.dirname(target);
  while (!fs.existsSync(existing)) existing = path.dirname(existing);
  if (!inside(root, fs.realpathSync(existing))) throw leadsOut();
  fs.mkdirSync(path.dirname(target), { recursive: true });
  if (!inside(root, fs.realpathSync(path.dirname(target)))) throw leadsOut();
  const stat = fs.lstatSync(target, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) throw leadsOut();
  if (stat && !stat.isFile()) throw new ActionError(`${relative} is in the workspace but is not a file: the Action does not replace it.`);
  return target;
}

/** What the agent's file holds, undefined when there is none; a file that is not a JSON object is never replaced. */
function readSettings(file: string, relative: string): Settings | undefined {
  if (!fs.existsSync(file)) return undefined;
  let existing: unknown;
  try {
    existing = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    existing = undefined;
  }
  if (!isObject(existing) || (existing.hooks !== undefined && !isObject(existing.hooks)))
    throw new ActionError(
      `${relative} is in the workspace but is not a JSON object${isObject(existing) ? ' whose "hooks" is an object' : ''}: ` +
        "the Action does not replace it. Make it JSON (shipgate's hooks are added beside what it holds) or remove it.",
    );
  return existing;
}

/**
 * `mode: session` with `agent`: writes the agent's hook configuration, as shipgate hands it out
 * for the session, into the workspace, and gives the agent's steps the token through the
 * environment (SHIPGATE_TOKEN, masked), never through a file (docs/action.md). It writes only
 * the agent's own file (HOOK_FILES), inside the workspace: an answer naming another path is
 * refused, and a file there that is not a JSON object is never replaced.
 */
export async function writeAgentHooks(
  client: ShipgateClient,
  session: AgentSession,
  agent: SessionAgent,
  workspace: string,
): Promise<HookSettingsFile> {
  const what = `read the ${agent} hook configuration of agent session ${session.id}`;
  const relative = HOOK_FILES[agent];
  const file = readHookSettingsFile(await client.get(`/agent-sessions/${session.id}/hooks`, { agent }, what), agent, relative, what);
  const target = fileInWorkspace(workspace, relative);
  fs.writeFileSync(target, `${JSON.stringify(merged(readSettings(target, relative), file.settings), null, 2)}\n`);
  core.exportVariable('SHIPGATE_TOKEN', session.token);
  if (file.env.SHIPGATE_URL) core.exportVariable('SHIPGATE_URL', file.env.SHIPGATE_URL);
  // Copilot CLI drops a hooks file with a plain-http hook unless told to allow it.
  if (agent === 'copilot' && session.mcp_url.startsWith('http://')) core.exportVariable('COPILOT_HOOK_ALLOW_LOCALHOST', '1');
  core.info(
    `Wrote ${relative}: every tool call of ${agent} is decided by shipgate (hook timeout ${file.timeout_seconds}s). ` +
      `Its steps get SHIPGATE_TOKEN${file.env.SHIPGATE_URL ? ' and SHIPGATE_URL' : ''} from the environment.`,
  );
  return file;
}
