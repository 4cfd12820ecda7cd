import type { RequiredEvidenceEntry } from '../evidence-content/evidence-rules.js';
import type { RuleResult } from '../evidence-content/judge-evidence-content.js';
import type { ApprovalRefusal, JudgedApproval, PullRequestFacts, ReviewFacts } from './authorship.js';
import { blocker, type Blocker, type Requirement } from './blocker.js';
import type { ChangePaths } from './change-paths.js';
import type { CommitEvidence } from './evidence.js';
import type { Gate } from './gate.js';
import type { RuleApprovers } from './gate-rules.js';
import type { RequiredCheckEntry } from './required-check-entry.js';
import { requiredCheckFindings } from './required-check-findings.js';
import { requiredEvidenceFindings } from './required-evidence-findings.js';
import { deepFreeze, isDeeplyFrozen } from '../deep-freeze.js';
import { filesWithoutOwnerApproval, ruleApprovers } from './rule-approvers.js';
import { rememberable, sameJson } from './same-json.js';
import type { RuleOutcome } from './rule-outcome.js';
import { touchedPathsOf } from './rule-scope.js';

/** How many triggering paths an outcome and a blocker name. */
const FIRST_FEW = 5;

/** One applying rule as the judge reads it: a rule of the gate, or the protected paths. */
export interface ApplyingRule {
  name: string;
  /** The gate field it comes from: `rules` or `protected_paths`. */
  policy: string;
  approvals: number;
  approvers: RuleApprovers | undefined;
  checks: RequiredCheckEntry[];
  evidence: RequiredEvidenceEntry[];
  /** The paths it is about (code owners are judged on them). */
  paths: string[];
  /** The paths that made it apply (empty when no path condition did). */
  triggeredBy: string[];
}

/** What every rule of one pull request is judged with for its approvals: its facts and the gate, nothing else. */
export interface ApprovalContext {
  pr: PullRequestFacts;
  /** Each reviewer's deciding review, judged for independence (`judgeApprovals`). */
  judged: JudgedApproval[];
  /** Why a reviewer could not approve independently whatever they reviewed (`reviewerRefusal`). */
  refusal: (reviewer: Pick<ReviewFacts, 'login' | 'type' | 'permission'>) => ApprovalRefusal | null;
}

/** What every rule of one decision is judged with for its checks and evidence, which change with them and with time. */
export interface RuleContext {
  gate: Gate;
  pr: PullRequestFacts;
  evidence: CommitEvidence;
  now: Date;
  commitSha: string;
}

/**
 * What one applying rule is judged to need from the pull request's stored facts and the gate alone: its approvals,
 * and its words. No clock and no evidence in it, so a commit polled again reuses it (core/release/rule-findings.ts).
 */
export interface RuleFactsJudgement {
  approvals: RuleOutcome['approvals'];
  disapprovedBy: string[];
  /** What its approvals lack, in words; empty when nothing. */
  shortfalls: string[];
  /** The approvers in words. */
  words: string;
  needsApproval: boolean;
  /** Whether it needs a code owner's approval of each file. */
  byOwners: boolean;
  /** The outcome's `triggered_by`: the first few paths that made it apply. */
  firstTriggers: string[];
  /** ` (it applies to <the first few paths>)`, or nothing when no path made it apply. */
  triggered: string;
  /** `(rule '<name>', changing <the first few paths>)`: what its checks' and evidence's blockers add. */
  because: string;
}

export interface RuleJudgement {
  outcome: RuleOutcome;
  /** `rule_not_met`, `rule_disapproved`. */
  blockers: Blocker[];
  /** The rule's checks and evidence, as the gate's own `required_checks` and `required_evidence` report them. */
  evidenceBlockers: Blocker[];
  requirements: Requirement[];
  evidenceRules: Record<string, RuleResult[]>;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const firstFew = (items: string[]) =>
  items.length <= FIRST_FEW ? items.join(', ') : `${items.slice(0, FIRST_FEW).join(', ')} and ${items.length - FIRST_FEW} more`;

/** The newest review of each reviewer: GitHub's account type and the permission read with it. */
function reviewerOf(pr: PullRequestFacts, login: string): Pick<ReviewFacts, 'login' | 'type' | 'permission'> {
  const reviews = pr.reviews.filter((r) => r.login.toLowerCase() === login.toLowerCase());
  return reviews[reviews.length - 1] ?? { login, type: 'User', permission: 'none' };
}

/**
 * One applying rule's approvals (docs/release-gate.md, "Rules"): from its approvers, each independent as
 * `judgeApprovals` decides, its code owners file by file, and a "changes requested" review from anyone who could
 * approve under it. Pure, from stored facts.
 */
export function judgeRuleFacts(rule: ApplyingRule, ctx: ApprovalContext): RuleFactsJudgement {
  const { pr } = ctx;
  const approvers = ruleApprovers(pr, rule.approvers, rule.paths);
  const permissionOf = (login: string) => reviewerOf(pr, login).permission;
  const approvals = ctx.judged
    .filter((j) => j.state === 'APPROVED' || approvers.isApprover(j.login, permissionOf(j.login)))
    .map((j) => {
      const approver = approvers.isApprover(j.login, permissionOf(j.login));
      const reason: RuleOutcome['approvals'][number]['reason'] = j.reason ?? (approver ? null : 'not_an_approver');
      return { login: j.login, counted: reason === null, reason };
    });
  const counted = approvals.filter((a) => a.counted).map((a) => a.login);
  const needsApproval = rule.approvals > 0 || approvers.ownedFiles !== null;
  // Only someone who could approve under the rule can hold it back, until they approve or the review is dismissed.
  const disapprovedBy = needsApproval
    ? ctx.judged
        .filter((j) => j.state === 'CHANGES_REQUESTED')
        .map((j) => reviewerOf(pr, j.login))
        .filter((r) => ctx.refusal(r) === null && approvers.isApprover(r.login, r.permission))
        .map((r) => r.login)
    : [];

  const shortfalls: string[] = [];
  if (counted.length < rule.approvals) {
    const has = counted.length === 0 ? 'has none' : `has ${counted.length}: ${counted.map((l) => `@${l}`).join(', ')}`;
    shortfalls.push(`needs ${plural(rule.approvals, 'approval')} from ${approvers.words}; ${has}`);
  }
  if (approvers.codeownersProblem) shortfalls.push(`needs code owners' approvals, but ${approvers.codeownersProblem}`);
  const unowned = approvers.ownedFiles ? filesWithoutOwnerApproval(pr, approvers.ownedFiles, counted) : [];
  if (unowned.length > 0) {
    const files = unowned.map((f) => `${f.path} (${f.owners.join(' or ')})`);
    shortfalls.push(`needs a code owner's approval of ${firstFew(files)}`);
  }
  if (shortfalls.length > 0 && approvers.unknownTeams.length > 0) {
    shortfalls.push(`the members of ${approvers.unknownTeams.join(', ')} are not known to shipgate (the App needs members: read)`);
  }
  const paths = rule.triggeredBy.length > 0 ? firstFew(rule.triggeredBy) : null;
  return {
    approvals,
    disapprovedBy,
    shortfalls,
    words: approvers.words,
    needsApproval,
    byOwners: approvers.ownedFiles !== null,
    firstTriggers: rule.triggeredBy.slice(0, FIRST_FEW),
    triggered: paths ? ` (it applies to ${paths})` : '',
    because: `(rule '${rule.name}'${paths ? `, changing ${paths}` : ''})`,
  };
}

/** What one applying rule's checks and evidence found at one decision: all a judgement adds to its facts'. */
interface RuleEvidenceFound {
  unmet: Blocker[];
  evidenceRules: Record<string, RuleResult[]>;
}

/**
 * Each rule's last judgement, kept while its judgement on facts (`judgeRuleFacts`: one per rule and pull request's
 * stored facts, deep-frozen by core/release/rule-findings.ts) is the same object and its checks and evidence found the
 * same: a commit polled again gets the same frozen outcome, blockers and requirement, so neither building their words
 * nor comparing and serialising the answer (core/release/decision-answer-json.ts) walks them again.
 */
const lastJudgement = new WeakMap<RuleFactsJudgement, { found: RuleEvidenceFound; judgement: RuleJudgement }>();

/**
 * Judges one applying rule (docs/release-gate.md, "Rules") from what its facts say (`judgeRuleFacts`) and its checks
 * and evidence through the gate's own findings. Pure, from stored facts.
 */
export function judgeRule(rule: ApplyingRule, onFacts: RuleFactsJudgement, ctx: RuleContext): RuleJudgement {
  const scoped = { ...ctx.gate, required_checks: rule.checks, required_evidence: rule.evidence };
  // A rule's own conditional check (`{name, paths}`) is judged on the same stored files as the gate's.
  const touched = touchedPathsOf(ctx.pr);
  const change: ChangePaths = 'paths' in touched ? { known: true, paths: touched.paths } : { known: false, why: touched.unknown.reason };
  const checks = requiredCheckFindings(scoped, ctx.evidence.checkRuns, ctx.now, change);
  const uploads = requiredEvidenceFindings(scoped, ctx.evidence, ctx.now, ctx.commitSha);
  const found: RuleEvidenceFound = { unmet: [...checks.blockers, ...uploads.blockers], evidenceRules: uploads.ruleResults };
  if (!isDeeplyFrozen(onFacts)) return judgeRuleWith(rule, onFacts, found);
  const last = lastJudgement.get(onFacts);
  if (last && sameJson(found, last.found)) return last.judgement;
  const judgement = deepFreeze(judgeRuleWith(rule, onFacts, found));
  lastJudgement.set(onFacts, { found: rememberable(found), judgement });
  return judgement;
}

/** The rule's outcome, blockers and requirement in words, from its facts' judgement and what its evidence found. */
function judgeRuleWith(rule: ApplyingRule, onFacts: RuleFactsJudgement, { unmet, evidenceRules }: RuleEvidenceFound): RuleJudgement {
  const { disapprovedBy, shortfalls, words, needsApproval, byOwners, triggered, because } = onFacts;
  const evidenceBlockers = unmet.map((b) => ({ ...b, reason: `${b.reason.replace(/\.$/, '')} ${because}.` }));

  const missing = [
    ...shortfalls,
    ...(disapprovedBy.length > 0 ? [`changes requested by ${disapprovedBy.map((l) => `@${l}`).join(', ')}`] : []),
    ...unmet.map((b) => b.reason.replace(/\.$/, '')),
  ];
  const component = `rule:${rule.name}`;
  const blockers: Blocker[] = [];
  if (shortfalls.length > 0) {
    blockers.push(
      blocker(
        'rule_not_met',
        component,
        `Rule '${rule.name}'${triggered} is not met: ${shortfalls.join('; ')}.`,
        `Have ${words} review and approve the current head on GitHub; an approval counts from a person with write who is not an author, committer, co-author or (for an agent’s pull request) assignee of it.`,
      ),
    );
  }
  if (disapprovedBy.length > 0) {
    blockers.push(
      blocker(
        'rule_disapproved',
        component,
        `${disapprovedBy.map((l) => `@${l}`).join(', ')} requested changes, and could approve under rule '${rule.name}'${triggered}.`,
        'Address the review until they approve the current head, or have the review dismissed on GitHub.',
      ),
    );
  }
  const outcome: RuleOutcome = {
    name: rule.name,
    met: missing.length === 0,
    triggered_by: onFacts.firstTriggers,
    missing: missing.length === 0 ? null : missing.join('; '),
    disapproved_by: disapprovedBy,
    approvals: onFacts.approvals,
  };
  const wanted = [
    ...(rule.approvals > 0 ? [`${plural(rule.approvals, 'independent approval')} from ${words}`] : []),
    ...(byOwners ? ['a code owner’s approval of each file it is about'] : []),
    ...(rule.checks.length > 0 ? [`its ${plural(rule.checks.length, 'check')}`] : []),
    ...(rule.evidence.length > 0 ? [`its evidence (${plural(rule.evidence.length, 'item')})`] : []),
  ];
  const requirement: Requirement = {
    policy: rule.policy,
    // Its files are the outcome's `triggered_by`, served in the same answer: not repeated here (docs/benchmarks.md).
    requirement: `Rule '${rule.name}': ${wanted.length > 0 ? wanted.join(', ') : 'nothing beyond the gate'}${needsApproval ? ', and no changes requested by an approver' : ''}.`,
    satisfied: outcome.met,
    remediation: outcome.met ? null : [...blockers, ...evidenceBlockers].map((b) => b.remediation_suggestion).join(' '),
  };
  return { outcome, blockers, evidenceBlockers, requirements: [requirement], evidenceRules };
}
