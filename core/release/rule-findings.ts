import type { RuleResult } from '../evidence-content/judge-evidence-content.js';
import { deepFreeze, isDeeplyFrozen } from '../deep-freeze.js';
import { hasAgentRules } from './agent-gate-fields.js';
import type { CommitAuthorship } from './agent-change-findings.js';
import { agentsOfPullRequest } from './agent-identity.js';
import type { PullRequestFacts } from './authorship.js';
import { blocker, PENDING_FILES_COMPONENT, type Blocker, type Findings, type Requirement } from './blocker.js';
import type { CommitEvidence } from './evidence.js';
import type { Gate } from './gate.js';
import { PROTECTED_PATHS_RULE } from './gate-rules.js';
import { judgeApprovals, reviewerRefusal } from './independent-approvals.js';
import { judgeRule, judgeRuleFacts, type ApplyingRule, type RuleContext, type RuleFactsJudgement } from './judge-rule.js';
import { pathsMatching } from './path-globs.js';
import type { RuleOutcome } from './rule-outcome.js';
import { ruleScope, touchedPathsOf, type UnknownFacts } from './rule-scope.js';

export interface RuleFindings extends Findings {
  /** The applying rules' checks and evidence (`required_check_*`, `required_evidence_*`, ...). */
  evidenceBlockers: Blocker[];
  /** Each applying rule, met or not, and each whose applying is unknown; absent when none applies. */
  rules: RuleOutcome[] | undefined;
  evidenceRules: Record<string, RuleResult[]>;
}

const NONE: RuleFindings = { requirements: [], blockers: [], evidenceBlockers: [], rules: undefined, evidenceRules: {} };

const RECHECK = 'Comment `/shipgate recheck` on the pull request (or push to it) so shipgate reads it again.';

function filesUnknown(component: string, reason: string, remediation: string): Pick<Findings, 'blockers' | 'requirements'> {
  const found = blocker('changed_files_unknown', component, reason, remediation);
  const requirement: Requirement = {
    policy: 'rules',
    requirement: 'What the pull request changes is known, so the gate’s rules and protected paths can be judged.',
    satisfied: false,
    remediation,
  };
  return { blockers: [found], requirements: [requirement] };
}

/** A pull request whose facts were not read: the rules cannot be judged, and the decision fails closed. */
function unreadPullRequest(gate: Gate, number: number, status: string, why: string | null): RuleFindings {
  // The agent rules already block unknown authorship; the protected paths alone (an agent's change) add nothing then.
  if (gate.rules.length === 0 && hasAgentRules(gate.agent_changes)) return NONE;
  const pending = status === 'pending';
  const found = pending
    ? filesUnknown(
        PENDING_FILES_COMPONENT,
        `Pull request #${number} has not been read from GitHub yet: its files, labels and reviews decide which of the gate’s rules apply.`,
        'Wait for shipgate to read the pull request, then ask for the decision again.',
      )
    : filesUnknown('files:unreadable', `Pull request #${number} could not be read: ${why ?? 'GitHub could not be read'}`, RECHECK);
  return { ...NONE, ...found };
}

/** One blocker for every rule whose applying is unknown: what was not read, and which rules it leaves unjudged. */
function unknownRules(unknown: { name: string; why: UnknownFacts }[]): Pick<Findings, 'blockers' | 'requirements'> {
  const why = unknown[0].why;
  const names = unknown.map((u) => `'${u.name}'`).join(', ');
  const remediation =
    why.status === 'file_limit'
      ? `Split the pull request: GitHub lists at most 3,000 of its files, and shipgate does not guess at the rest. ${RECHECK}`
      : RECHECK;
  return filesUnknown(`files:${why.status}`, `${why.reason} Whether ${names} apply cannot be told, so it does not ship.`, remediation);
}

/** Which rules apply to a pull request, with what its facts say of each (`judgeRuleFacts`), and which cannot be told. */
interface PullRequestRules {
  applying: { rule: ApplyingRule; onFacts: RuleFactsJudgement }[];
  unknown: { name: string; why: UnknownFacts }[];
}

/** Which of the gate's rules (and its protected paths) apply to a pull request, and their approvals: no clock, no evidence. */
function judgePullRequestRules(gate: Gate, pr: PullRequestFacts): PullRequestRules {
  const agentAuthored = agentsOfPullRequest(pr, gate.agents).length > 0;
  const approvalContext = {
    pr,
    judged: judgeApprovals(pr, gate.agents, gate.agent_changes, agentAuthored),
    refusal: reviewerRefusal(pr, gate.agents, agentAuthored),
  };
  const applying: ApplyingRule[] = [];
  const unknown: { name: string; why: UnknownFacts }[] = [];
  if (gate.protected_paths.enabled && agentAuthored) {
    const touched = touchedPathsOf(pr);
    if ('unknown' in touched) {
      unknown.push({ name: PROTECTED_PATHS_RULE, why: touched.unknown });
    } else {
      const paths = pathsMatching(touched.paths, gate.protected_paths.paths);
      const { approvals, permission } = gate.protected_paths;
      const approvers = { permission, codeowners: false };
      if (paths.length > 0) {
        applying.push({
          name: PROTECTED_PATHS_RULE,
          policy: 'protected_paths',
          approvals,
          approvers,
          checks: [],
          evidence: [],
          paths,
          triggeredBy: paths,
        });
      }
    }
  }
  for (const rule of gate.rules) {
    const scope = ruleScope(rule, pr, agentAuthored);
    if (scope.applies === 'unknown') unknown.push({ name: rule.name, why: scope.why });
    if (scope.applies !== 'yes') continue;
    const { approvals, approvers, checks, evidence: wanted } = rule.require;
    const triggeredBy = scope.byPath ? scope.paths : [];
    applying.push({ name: rule.name, policy: 'rules', approvals, approvers, checks, evidence: wanted, paths: scope.paths, triggeredBy });
  }
  return { applying: applying.map((rule) => ({ rule, onFacts: judgeRuleFacts(rule, approvalContext) })), unknown };
}

/** The gate's fields a pull request's rules are judged with, besides its facts. */
type RulesGateFields = Pick<Gate, 'rules' | 'protected_paths' | 'agents' | 'agent_changes'>;

/**
 * Each pull request's judged rules, kept while its stored facts and the gate's fields they were judged with are the
 * objects the decision's cache deep-froze (`isDeeplyFrozen`: the same object holds the same content for as long as it
 * lives). Never stale by construction: the judgement reads nothing else (no clock, no evidence), and anything read
 * again (a new review, new files, a new gate version) is a new object, judged anew. A commit polled with unchanged
 * facts then skips matching its rules' paths and code owners (ARCHITECTURE.md, "Process-local state").
 */
const judgedRules = new WeakMap<PullRequestFacts, { gate: RulesGateFields; rules: PullRequestRules }>();

function rulesOfPullRequest(gate: Gate, pr: PullRequestFacts): PullRequestRules {
  const fields: (keyof RulesGateFields)[] = ['rules', 'protected_paths', 'agents', 'agent_changes'];
  if (!isDeeplyFrozen(pr) || !fields.every((f) => isDeeplyFrozen(gate[f]))) return judgePullRequestRules(gate, pr);
  const known = judgedRules.get(pr);
  if (known && fields.every((f) => known.gate[f] === gate[f])) return known.rules;
  // Frozen, as every poll of the commit shares it.
  const rules = deepFreeze(judgePullRequestRules(gate, pr));
  const { rules: r, protected_paths, agents, agent_changes } = gate;
  judgedRules.set(pr, { gate: { rules: r, protected_paths, agents, agent_changes }, rules });
  return rules;
}

/**
 * The gate's `rules` and `protected_paths` for a commit a pull request (or its merge group) names (docs/release-gate.md,
 * "Rules"), judged from the facts the App read and stored for its head, never from GitHub. A commit no pull request
 * names has none, as it has no agent rules. Where a rule needs facts that were not read (the files, over GitHub's
 * file limit, or read before shipgate read them), the decision never ships: `changed_files_unknown`.
 */
export function ruleFindings(
  gate: Gate,
  commit: { sha: string; authorship: CommitAuthorship },
  evidence: CommitEvidence,
  now: Date,
): RuleFindings {
  const { record } = commit.authorship;
  const guarded = gate.protected_paths.enabled;
  if (!record || (gate.rules.length === 0 && !guarded)) return NONE;
  if (record.status !== 'read' || !record.facts) return unreadPullRequest(gate, record.number, record.status, record.reason);
  const { applying, unknown } = rulesOfPullRequest(gate, record.facts);
  const ctx: RuleContext = { gate, pr: record.facts, evidence, now, commitSha: commit.sha };
  const judged = applying.map(({ rule, onFacts }) => judgeRule(rule, onFacts, ctx));
  const outcomes: RuleOutcome[] = [
    ...judged.map((j) => j.outcome),
    ...unknown.map((u) => ({
      name: u.name,
      met: false,
      triggered_by: [],
      missing: `whether it applies is unknown: ${u.why.reason}`,
      disapproved_by: [],
      approvals: [],
    })),
  ];
  const files = unknown.length > 0 ? unknownRules(unknown) : { blockers: [], requirements: [] };
  return {
    requirements: [...judged.flatMap((j) => j.requirements), ...files.requirements],
    blockers: [...judged.flatMap((j) => j.blockers), ...files.blockers],
    evidenceBlockers: judged.flatMap((j) => j.evidenceBlockers),
    rules: outcomes.length > 0 ? outcomes : undefined,
    evidenceRules: Object.assign({}, ...judged.map((j) => j.evidenceRules)) as Record<string, RuleResult[]>,
  };
}
