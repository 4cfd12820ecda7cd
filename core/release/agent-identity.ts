import type { AgentsConfig } from './agent-gate-fields.js';
import type { CommitFacts, Identity, PullRequestFacts } from './authorship.js';
import { loginOfNoreplyEmail } from './co-author-trailers.js';
import { KNOWN_AGENT_EMAILS, KNOWN_AGENT_LOGINS } from './known-agents.js';

const lower = (list: readonly string[]) => new Set(list.map((s) => s.toLowerCase()));
const KNOWN_LOGINS = lower(KNOWN_AGENT_LOGINS);
const KNOWN_EMAILS = lower(KNOWN_AGENT_EMAILS);

/** The GitHub login an identity stands for: the linked account, else the one its noreply e-mail names. */
export function loginOf(who: Partial<Identity>): string | null {
  return who.login ?? loginOfNoreplyEmail(who.email ?? null);
}

/**
 * The agent an identity is, by the gate's `agents` (docs/release-gate.md, "Agents on pull
 * requests"), or null for a person or a bot that is not an agent. Order: `accounts` makes an
 * agent; `not_agents` rules one out; then built-in logins, `Bot` accounts (with
 * `bots_are_agents`; a `[bot]` login counts as one when GitHub did not say), and e-mails.
 */
export function agentNameOf(who: Partial<Identity>, agents: AgentsConfig): string | null {
  const login = loginOf(who);
  const key = login?.toLowerCase() ?? null;
  if (key && lower(agents.accounts).has(key)) return login;
  if (key && lower(agents.not_agents).has(key)) return null;
  if (key && KNOWN_LOGINS.has(key)) return login;
  const bot = who.type === 'Bot' || (!who.type && key?.endsWith('[bot]') === true);
  if (login && bot && agents.bots_are_agents) return login;
  const email = who.email?.toLowerCase() ?? null;
  if (email && (KNOWN_EMAILS.has(email) || lower(agents.coauthor_emails).has(email))) return who.email ?? null;
  return null;
}

/** How an identity is shown: its login, else `name <email>`. */
export function describeIdentity(who: Partial<Identity>): string {
  if (who.login) return who.login;
  return `${who.name ?? ''} <${who.email ?? ''}>`.trim();
}

/** The agents among a commit's author, committer and co-authors (distinct, in that order). */
export function agentsOfCommit(commit: CommitFacts, agents: AgentsConfig): string[] {
  const found = [commit.author, commit.committer, ...commit.coauthors].map((who) => agentNameOf(who, agents));
  return [...new Set(found.filter((name): name is string => name !== null))];
}

/** Who a commit names: `author X`, `committer Y`, `co-author Z`. */
export function identitiesOfCommit(commit: CommitFacts): string[] {
  return [
    `author ${describeIdentity(commit.author)}`,
    `committer ${describeIdentity(commit.committer)}`,
    ...commit.coauthors.map((c) => `co-author ${describeIdentity(c)}`),
  ];
}

/** A pull request is agent-authored when its author is an agent or any of its commits is. */
export function agentsOfPullRequest(pr: PullRequestFacts, agents: AgentsConfig): string[] {
  const author = agentNameOf(pr.author, agents);
  const ofCommits = pr.commits.flatMap((c) => agentsOfCommit(c, agents));
  return [...new Set([...(author ? [author] : []), ...ofCommits])];
}
