import * as core from '@actions/core';
import type { HookSettingsFile } from './shipgate-types.js';

/** What `mode: session` opens: an agent session of the workflow's repository and branch (docs/action.md). */
export interface SessionInputs {
  /** The registered upstream MCP servers the agent may reach (none when only its hooks are governed). */
  servers: string[];
  /** The coding agent whose hook configuration to write into the workspace (docs/action.md). */
  agent?: SessionAgent;
  compliancePolicy?: string;
  /** Requested capabilities; the policy's defaults when absent. */
  permissions?: string[];
  expiresInSeconds?: number;
  /** The branch the job runs on (push: GITHUB_REF; pull request: its head branch); none on a tag. */
  branch?: string;
  /** The session's name, recorded as its execution's task: the workflow, job and run. */
  name: string;
}

/** The coding agents whose hooks shipgate answers (docs/agent-hooks.md). */
export type SessionAgent = HookSettingsFile['agent'];
export const SESSION_AGENTS = ['claude-code', 'copilot', 'gemini'] as const satisfies readonly SessionAgent[];

const SERVER = /^[a-z0-9-]{1,40}$/;
const list = (text: string | undefined) =>
  (text ?? '')
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);

/** The job's branch as GitHub Actions names it, the one shipgate reads from the job's OIDC token. */
export function jobBranch(env: NodeJS.ProcessEnv): string | undefined {
  if (env.GITHUB_REF?.startsWith('refs/heads/')) return env.GITHUB_REF.slice('refs/heads/'.length) || undefined;
  if (env.GITHUB_REF?.startsWith('refs/pull/')) return env.GITHUB_HEAD_REF || undefined;
  return undefined;
}

/** The inputs of `mode: session`; problems are added to `problems`, reported with the others. */
export function parseSessionInputs(env: NodeJS.ProcessEnv, problems: string[]): SessionInputs {
  const input = (name: string) => core.getInput(name) || undefined;
  const servers = list(input('servers'));
  const agent = input('agent');
  if (agent !== undefined && !(SESSION_AGENTS as readonly string[]).includes(agent))
    problems.push(`agent must be one of ${SESSION_AGENTS.join(', ')} (got "${agent}").`);
  if (servers.length === 0 && agent === undefined)
    problems.push(
      'mode session needs servers (the registered MCP servers the agent may reach, e.g. "github"), agent (claude-code, copilot or gemini), or both.',
    );
  const badServers = servers.filter((server) => !SERVER.test(server));
  if (badServers.length > 0) problems.push(`servers are lower-case letters, digits and - (got "${badServers.join('", "')}").`);
  const expiresText = input('expires-in');
  const expiresIn = expiresText === undefined ? undefined : Number(expiresText);
  if (expiresIn !== undefined && !(Number.isInteger(expiresIn) && expiresIn >= 60 && expiresIn <= 86_400))
    problems.push(`expires-in must be a whole number of seconds from 60 to 86400 (got "${expiresText}").`);
  const permissions = list(input('permissions'));
  const run = [env.GITHUB_WORKFLOW, env.GITHUB_JOB].filter(Boolean).join(' / ') || 'GitHub Actions';
  return {
    servers,
    agent: agent as SessionAgent | undefined,
    compliancePolicy: input('compliance-policy'),
    permissions: permissions.length > 0 ? permissions : undefined,
    expiresInSeconds: expiresIn,
    branch: jobBranch(env),
    name: `${run}${env.GITHUB_RUN_ID ? ` (run ${env.GITHUB_RUN_ID})` : ''}`.slice(0, 200),
  };
}
