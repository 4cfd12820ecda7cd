import { CodeownersBeyondReach, newCodeownersBudget, parseCodeowners } from './codeowners.js';
import type { PullRequestFacts } from './authorship.js';
import { RULE_PERMISSIONS, type RuleApprovers } from './gate-rules.js';

const RANK = new Map<string, number>(RULE_PERMISSIONS.map((p, i) => [p, i + 1]));

/** Who may approve under one rule, and the code owners of the files it is about. */
export interface RuleApproverFacts {
  /** Whether a reviewer (any case) with this permission is one of the rule's approvers. */
  isApprover(login: string, permission: string): boolean;
  /** The approvers in words: `acme/sre`, `@ana or people with maintain or more`. */
  words: string;
  /** Teams the rule (or CODEOWNERS) names whose members shipgate does not know. */
  unknownTeams: string[];
  /** Each owned file's owners (`@user`, `@org/team`), when the rule needs code owners; null when it does not. */
  ownedFiles: { path: string; owners: string[] }[] | null;
  /** Why the code owners are not known (no CODEOWNERS on the base branch, or unreadable); null when known or not needed. */
  codeownersProblem: string | null;
}

/** The members of an `org/slug` team as read with the facts; null when not known. */
function membersOf(pr: PullRequestFacts, team: string): string[] | null {
  return pr.teams?.[team.toLowerCase()] ?? null;
}

/** Whether `login` is `owner` (`@user`) or a member of it (`@org/team`); an e-mail owner never matches a login. */
function owns(pr: PullRequestFacts, owner: string, login: string): boolean {
  if (!owner.startsWith('@')) return false;
  const name = owner.slice(1).toLowerCase();
  return name.includes('/') ? (membersOf(pr, name)?.includes(login) ?? false) : name === login;
}

/** The code owners of each path, from the base branch's CODEOWNERS (parsed by core/release/codeowners.ts). */
function codeownersOf(pr: PullRequestFacts, paths: string[]): { owned: { path: string; owners: string[] }[]; problem: string | null } {
  const file = pr.codeowners;
  if (!file)
    return {
      owned: [],
      problem: `the base branch's CODEOWNERS was not read (pull request #${pr.number} was read before shipgate read it)`,
    };
  if (file.status === 'absent') return { owned: [], problem: 'the base branch has no CODEOWNERS file (.github/, the root or docs/)' };
  if (file.status === 'unreadable') return { owned: [], problem: `the base branch's CODEOWNERS could not be read: ${file.reason}` };
  const codeowners = parseCodeowners(file.text);
  const budget = newCodeownersBudget();
  try {
    const owned = paths.map((path) => ({ path, owners: codeowners.ownersOf(path, budget) }));
    return { owned: owned.filter((f) => f.owners.length > 0), problem: null };
  } catch (error) {
    if (error instanceof CodeownersBeyondReach) return { owned: [], problem: error.message };
    throw error;
  }
}

/**
 * The approvers of a rule (docs/release-gate.md, "Rules"): anyone listed in `users`, a member of one of `teams`, anyone
 * with at least `permission`, or (with `codeowners`) an owner of one of `paths`; no approvers given means any
 * independent person with write. Matching is by lower-case login; independence is judged elsewhere.
 */
export function ruleApprovers(pr: PullRequestFacts, approvers: RuleApprovers | undefined, paths: string[]): RuleApproverFacts {
  const users = approvers?.users ?? [];
  const teams = approvers?.teams ?? [];
  const permission = approvers?.permission;
  const codeowners = approvers?.codeowners ? codeownersOf(pr, paths) : null;
  const ownerNames = [...new Set(codeowners?.owned.flatMap((f) => f.owners) ?? [])];
  const anyone = users.length === 0 && teams.length === 0 && !permission && !codeowners;
  const unknownTeams = [...teams, ...ownerNames.filter((o) => o.startsWith('@') && o.includes('/')).map((o) => o.slice(1))].filter(
    (team, i, all) => all.indexOf(team) === i && membersOf(pr, team) === null,
  );
  const words = anyone
    ? 'an independent person with write'
    : [
        ...users.map((u) => `@${u}`),
        ...teams,
        ...(permission ? [`people with ${permission} or more`] : []),
        ...(codeowners ? ['code owners'] : []),
      ].join(' or ');
  return {
    isApprover(login, held) {
      if (anyone) return true;
      const key = login.toLowerCase();
      if (users.includes(key)) return true;
      if (teams.some((t) => membersOf(pr, t)?.includes(key))) return true;
      if (permission && (RANK.get(held) ?? 0) >= (RANK.get(permission) ?? Infinity)) return true;
      return ownerNames.some((owner) => owns(pr, owner, key));
    },
    words,
    unknownTeams,
    ownedFiles: codeowners ? codeowners.owned : null,
    codeownersProblem: codeowners?.problem ?? null,
  };
}

/** The owned files no counted approver owns: each needs an approval from one of its owners. */
export function filesWithoutOwnerApproval(
  pr: PullRequestFacts,
  owned: { path: string; owners: string[] }[],
  counted: string[],
): { path: string; owners: string[] }[] {
  const logins = counted.map((l) => l.toLowerCase());
  return owned.filter((f) => !f.owners.some((owner) => logins.some((login) => owns(pr, owner, login))));
}
