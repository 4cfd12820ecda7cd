import type { HookAgent } from './hook-call.js';

/**
 * The hook configuration shipgate hands out per coding agent (docs/agent-hooks.md, "Configuration
 * handed out"): the file to drop into the repository, pointing every tool call of the agent at
 * `POST /api/v1/hooks/{agent}`. The credential is never part of it: the agent reads it from the
 * environment variable SHIPGATE_TOKEN, so the file can be committed and the token stays a secret.
 */

/** Where the agent (and `shipgate hook`) reads the credential: a session token or an agent key. */
export const HOOK_TOKEN_ENV = 'SHIPGATE_TOKEN';
/** Where `shipgate hook` reads shipgate's URL (command hooks only; http hooks carry the URL). */
export const HOOK_URL_ENV = 'SHIPGATE_URL';

/**
 * Beyond the policy's `ask_timeout_seconds`, how long a hook waits for shipgate's answer: a held
 * call is answered (denied) by shipgate at its timeout, so the agent must not give up first and
 * apply its own failure rule instead.
 */
export const HOOK_TIMEOUT_MARGIN_SECONDS = 30;

export interface HookSettingsTerms {
  /** shipgate's public URL, without a trailing slash. */
  publicUrl: string;
  /** The policy's `ask_timeout_seconds` (its default when the policy names none). */
  askTimeoutSeconds: number;
}

export interface HookSettingsFile {
  agent: HookAgent;
  /** The file's path relative to the repository root. */
  path: string;
  /** The file's JSON content. */
  settings: Record<string, unknown>;
  /** Each environment variable the agent's process needs, with what to set it to (never the secret itself). */
  env: Record<string, string>;
  /** Each hook's own timeout. */
  timeout_seconds: number;
}

const hookUrl = (terms: HookSettingsTerms, agent: HookAgent) => `${terms.publicUrl}/api/v1/hooks/${agent}`;
const TOKEN_DESCRIPTION = 'The agent session token or repository agent key (a secret: set it in the environment, never in a file).';

/** Claude Code's `.claude/settings.json`: http hooks that block the tool when shipgate gives no verdict. */
function claudeCodeSettings(terms: HookSettingsTerms, timeout: number): Record<string, unknown> {
  const hook = {
    type: 'http',
    url: hookUrl(terms, 'claude-code'),
    headers: { Authorization: `Bearer $${HOOK_TOKEN_ENV}` },
    allowedEnvVars: [HOOK_TOKEN_ENV],
    // Claude Code lets the tool run when an http hook fails (unreachable, 5xx, not JSON) unless told otherwise.
    onFailure: 'block',
    timeout,
  };
  const every = [{ matcher: '*', hooks: [hook] }];
  return { hooks: { PreToolUse: every, PostToolUse: every } };
}

/**
 * Copilot CLI's `.github/hooks/shipgate.json`: http hooks, the same request as Claude Code's with
 * Copilot's own input. Copilot denies the tool when its http pre hook errs (unreachable, no
 * verdict), so no failure rule is needed; it loads a plain-http hook only with
 * COPILOT_HOOK_ALLOW_LOCALHOST=1 (docs/agent-hooks.md, "Making hooks non-bypassable").
 */
function copilotSettings(terms: HookSettingsTerms, timeout: number): Record<string, unknown> {
  const hook = {
    type: 'http',
    url: hookUrl(terms, 'copilot'),
    headers: { Authorization: `Bearer $${HOOK_TOKEN_ENV}` },
    allowedEnvVars: [HOOK_TOKEN_ENV],
    timeoutSec: timeout,
  };
  return { version: 1, hooks: { preToolUse: [hook], postToolUse: [hook] } };
}

/** Gemini CLI's `.gemini/settings.json`: it has command hooks only. */
function geminiSettings(timeout: number): Record<string, unknown> {
  // Gemini CLI's hook timeout is in milliseconds.
  const every = [{ matcher: '*', hooks: [{ type: 'command', command: 'shipgate hook gemini', timeout: timeout * 1000 }] }];
  return { hooks: { BeforeTool: every, AfterTool: every } };
}

/** The configuration file of `agent` for a session or key whose policy holds asked calls `askTimeoutSeconds`. */
export function hookSettingsFile(agent: HookAgent, terms: HookSettingsTerms): HookSettingsFile {
  const timeout = terms.askTimeoutSeconds + HOOK_TIMEOUT_MARGIN_SECONDS;
  const env = { [HOOK_TOKEN_ENV]: TOKEN_DESCRIPTION };
  switch (agent) {
    case 'claude-code':
      return { agent, path: '.claude/settings.json', settings: claudeCodeSettings(terms, timeout), env, timeout_seconds: timeout };
    case 'copilot':
      return { agent, path: '.github/hooks/shipgate.json', settings: copilotSettings(terms, timeout), env, timeout_seconds: timeout };
    case 'gemini':
      return {
        agent,
        path: '.gemini/settings.json',
        settings: geminiSettings(timeout),
        env: { ...env, [HOOK_URL_ENV]: terms.publicUrl },
        timeout_seconds: timeout,
      };
  }
}
