/**
 * Built-in facts about well-known coding agents on GitHub: the one place they live
 * (docs/release-gate.md, "Agents on pull requests"). A gate extends them with `agents.accounts`
 * and `agents.coauthor_emails`; they are defaults, never a complete list. Logins and e-mails are
 * compared case-insensitively.
 */

/** GitHub logins that are coding agents. */
export const KNOWN_AGENT_LOGINS: readonly string[] = [
  // GitHub Copilot coding agent: the REST `user` of its pull requests is `Copilot` (type Bot, app
  // copilot-swe-agent); some payloads name the app login instead (GitHub docs, "About Copilot
  // coding agent"; seen in rubygems/shipit-engine#1411, microsoft/aspire#19989).
  'Copilot',
  'copilot-swe-agent[bot]',
  // Google Jules opens pull requests as this App (aavetis/PRarena#57, OpenNutriTracker#1024).
  'google-labs-jules[bot]',
  // OpenAI Codex (cloud) pushes to pull requests as this App (seen once: myplanet#15436).
  'chatgpt-codex-connector[bot]',
];

/** Git e-mails that, as a commit's author, committer or `Co-authored-by:` trailer, name a coding agent. */
export const KNOWN_AGENT_EMAILS: readonly string[] = [
  // Copilot coding agent's commits: author `Copilot <198982749+Copilot@users.noreply.github.com>`.
  '198982749+Copilot@users.noreply.github.com',
  // Claude Code: `Co-Authored-By: Claude <model> <noreply@anthropic.com>`, the name changes with the
  // model, the e-mail does not (anthropics/claude-code#2192, #36105).
  'noreply@anthropic.com',
  // Aider: `Co-authored-by: aider (<model>) <noreply@aider.chat>`, on by default (umputun/ralphex#240).
  'noreply@aider.chat',
  // OpenCode: `Co-Authored-By: opencode <noreply@opencode.ai>` (umputun/ralphex#240).
  'noreply@opencode.ai',
];

/**
 * Accounts that are bots but not LLM agents: dependency and CI bots, and shipgate's own App
 * (`shipgate[bot]`, the name in app.yml). The default of `agents.not_agents`.
 */
export const DEFAULT_NOT_AGENTS: readonly string[] = ['dependabot[bot]', 'renovate[bot]', 'github-actions[bot]', 'shipgate[bot]'];
