import { CodeownersBeyondReach, newCodeownersBudget, parseCodeowners } from './codeowners.js';

/** The most teams one read of a pull request expands; any further team is stored as not known (null). */
export const MAX_TEAMS_EXPANDED = 100;

type Approvers = { teams?: unknown; codeowners?: unknown } | undefined;

/** Each rule's `require.approvers`, read defensively: a gate recorded before rules existed has none. */
function approversOf(gate: object): Approvers[] {
  const rules = (gate as { rules?: unknown }).rules;
  if (!Array.isArray(rules)) return [];
  return rules.map((rule) => (rule as { require?: { approvers?: Approvers } } | null)?.require?.approvers);
}

/** The `@org/team` owners (as `org/team`) of the paths a change touches, by the CODEOWNERS text in force. */
function owningTeams(codeowners: string, paths: readonly string[]): string[] {
  const owners = parseCodeowners(codeowners);
  const budget = newCodeownersBudget();
  const teams = new Set<string>();
  try {
    for (const path of paths) {
      for (const owner of owners.ownersOf(path, budget)) if (owner.startsWith('@') && owner.includes('/')) teams.add(owner.slice(1));
    }
  } catch (error) {
    // Past what a judgement spends, the rule fails closed whatever the teams' members (rule-approvers.ts).
    if (error instanceof CodeownersBeyondReach) return [];
    throw error;
  }
  return [...teams];
}

/**
 * The teams whose members a pull request's read stores (docs/release-gate.md, "Changed files"):
 * those the gate's rules name as approvers, and, when a rule counts code owners, the teams the base
 * branch's CODEOWNERS makes owners of the paths the change touches. Lower-case `org/slug`, each
 * once, rules' teams first, at most MAX_TEAMS_EXPANDED; the rest are `beyond` (stored as not
 * known, so a rule needing them fails closed).
 */
export function teamsToExpand(gate: object, codeowners: string | null, paths: readonly string[]): { expand: string[]; beyond: string[] } {
  const approvers = approversOf(gate);
  const named = approvers.flatMap((a) => (Array.isArray(a?.teams) ? a.teams.filter((t): t is string => typeof t === 'string') : []));
  const owning = codeowners !== null && approvers.some((a) => a?.codeowners === true) ? owningTeams(codeowners, paths) : [];
  const all = [...new Set([...named, ...owning].map((t) => t.toLowerCase()))];
  return { expand: all.slice(0, MAX_TEAMS_EXPANDED), beyond: all.slice(MAX_TEAMS_EXPANDED) };
}
