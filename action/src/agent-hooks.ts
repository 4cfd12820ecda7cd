import * as core from '@actions/core';
import fs from 'node:fs';
import path from 'node:path';
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

function readJson(file: string): unknown {
  if (!fs.existsSync(file)) return undefined;
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    core.warning(`${file} is not JSON: shipgate's hook configuration replaces it.`);
    return undefined;
  }
}

/**
 * `mode: session` with `agent`: writes the agent's hook configuration, as shipgate hands it out
 * for the session, into the workspace, and gives the agent's steps the token through the
 * environment (SHIPGATE_TOKEN, masked), never through a file (docs/action.md).
 */
export async function writeAgentHooks(
  client: ShipgateClient,
  session: AgentSession,
  agent: SessionAgent,
  workspace: string,
): Promise<HookSettingsFile> {
  const file = await client.get<HookSettingsFile>(
    `/agent-sessions/${session.id}/hooks`,
    { agent },
    `read the ${agent} hook configuration of agent session ${session.id}`,
  );
  const target = path.resolve(workspace, file.path);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, `${JSON.stringify(merged(readJson(target), file.settings), null, 2)}\n`);
  core.exportVariable('SHIPGATE_TOKEN', session.token);
  if (file.env.SHIPGATE_URL) core.exportVariable('SHIPGATE_URL', file.env.SHIPGATE_URL);
  // Copilot CLI drops a hooks file with a plain-http hook unless told to allow it.
  if (agent === 'copilot' && session.mcp_url.startsWith('http://')) core.exportVariable('COPILOT_HOOK_ALLOW_LOCALHOST', '1');
  core.info(
    `Wrote ${file.path}: every tool call of ${agent} is decided by shipgate (hook timeout ${file.timeout_seconds}s). ` +
      `Its steps get SHIPGATE_TOKEN${file.env.SHIPGATE_URL ? ' and SHIPGATE_URL' : ''} from the environment.`,
  );
  return file;
}
