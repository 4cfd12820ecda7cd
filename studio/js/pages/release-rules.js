import { h, pill, table } from '../dom.js';

/** @import { ReleaseDecision } from '../../types.js' */

/** @typedef {NonNullable<ReleaseDecision['authorship']['rules']>[number]} RuleOutcome */

/** How many triggering paths a row shows; the decision holds the first few. */
const PATHS_SHOWN = 5;

/** The files that made a rule apply, the first few as code. @param {RuleOutcome} rule */
function triggeredBy(rule) {
  if (rule.triggered_by.length === 0) return h('span.muted', {}, '—');
  const more = rule.triggered_by.length - PATHS_SHOWN;
  return h(
    'span',
    {},
    rule.triggered_by.slice(0, PATHS_SHOWN).map((p, i) => [i > 0 ? ', ' : '', h('code', {}, p)]),
    more > 0 ? ` and ${more} more` : '',
  );
}

/** What stands in a rule's way: the missing approvals, who requested changes. @param {RuleOutcome} rule */
function missing(rule) {
  const parts = [
    rule.missing,
    rule.disapproved_by.length ? `changes requested by ${rule.disapproved_by.map((l) => `@${l}`).join(', ')}` : null,
  ];
  const text = parts.filter(Boolean).join('; ');
  return text || h('span.muted', {}, '—');
}

/** The approvals a rule counted. @param {RuleOutcome} rule */
function counted(rule) {
  const logins = rule.approvals.filter((a) => a.counted).map((a) => a.login);
  return logins.length ? logins.join(', ') : h('span.muted', {}, 'none');
}

/**
 * The rules of the gate that applied to the pull request (docs/release-gate.md, "Rules"): each met
 * or not, what is missing, the files that made it apply; and how many files the pull request
 * changes. Nothing when the decision judged no rules.
 * @param {ReleaseDecision} d
 */
export function rulesSection(d) {
  const { rules, changed_files: files } = d.authorship;
  if (!rules && !files) return null;
  return h(
    'div',
    { id: 'rules' },
    h('h3', {}, 'Rules'),
    files ? h('p', { id: 'changed-files' }, files.text) : null,
    rules?.length
      ? table(
          ['Rule', 'Met', 'Missing', 'Triggered by', 'Approvals counted'],
          rules.map((r) => [r.name, r.met ? pill('met') : pill('unmet'), missing(r), triggeredBy(r), counted(r)]),
        )
      : h('p.muted', {}, 'No rule of the gate applies to this pull request.'),
  );
}
