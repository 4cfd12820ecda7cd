// The gate editor's simulation (docs/release-gate.md, "Simulating a gate"): before a draft is saved, what it would
// decide for the repository's recent commits, beside what the gate in force decides for them now, each changed
// commit linking to its release page. The API judges; this only shows its answer.
import { ApiError, send } from '../api.js';
import { cell, h, link, pill, replace } from '../dom.js';
import { errorBox } from './submit-form.js';

/** @import { GateSimulation } from '../../types.js' */

/** How many recent decisions the editor tries a draft on (the API's default). */
const LIMIT = 200;

/**
 * A 422's issues by the gate field each names: the simulation and the save place them alike (`["body", "rules", 1,
 * "name"]` -> `rules.1.name`).
 * @param {unknown} error
 * @returns {{ path: string, msg: string }[] | null} null when the error is not a validation refusal
 */
export function gateIssues(error) {
  if (!(error instanceof ApiError && error.status === 422 && Array.isArray(error.detail))) return null;
  return error.detail.map((issue) => ({
    path: (issue.loc ?? []).filter((/** @type {unknown} */ part, /** @type {number} */ i) => !(i === 0 && part === 'body')).join('.'),
    msg: issue.msg,
  }));
}

/**
 * The section that tries the form's draft on the last decisions.
 * @param {string} base the gate's API path (`releases/gates/<owner>/<repo>`)
 * @param {() => { gate: Record<string, unknown>, problems: unknown[] }} draft reads the form (what a PUT would send), showing its own problems
 * @param {(issues: { path: string, msg: string }[]) => void} showIssues shows the API's 422 by field
 * @param {AbortSignal} signal
 */
export function simulationSection(base, draft, showIssues, signal) {
  const result = h('div', { id: 'gate-simulation', 'aria-live': 'polite' });
  const button = h('button.secondary', { type: 'button', id: 'gate-simulate' }, `Try it on the last ${LIMIT} decisions`);
  button.addEventListener('click', async () => {
    const { gate, problems } = draft();
    if (problems.length) {
      replace(result, h('p', {}, 'Not tried: fix the fields marked in the form.'));
      return;
    }
    button.disabled = true;
    replace(result, h('p', {}, 'Judging the recent decisions…'));
    try {
      /** @type {GateSimulation} */
      const simulation = await send('POST', `${base}/simulate`, { gate, limit: LIMIT }, { signal });
      replace(result, ...answer(simulation));
    } catch (error) {
      const issues = gateIssues(error);
      if (issues) {
        showIssues(issues);
        replace(result, h('p', {}, 'Not tried: the API refused the draft (see the fields marked in the form).'));
      } else replace(result, errorBox(error));
    } finally {
      button.disabled = false;
    }
  });
  return h(
    'section',
    { 'aria-labelledby': 'gate-simulation-title' },
    h('h2', { id: 'gate-simulation-title' }, 'Before saving'),
    h(
      'p.muted',
      {},
      'Judges the form’s gate against what shipgate holds for the recent commits and pull request heads, beside the gate in force; nothing is saved.',
    ),
    button,
    result,
  );
}

/** @param {GateSimulation} s */
function answer(s) {
  const { flips_to_no_ship: block, flips_to_ship: unblock, changed_blockers: other } = s.totals;
  const summary = h(
    'p',
    { id: 'gate-simulation-summary' },
    s.judged === 0
      ? 'shipgate holds no decisions of this repository yet: nothing to try the draft on.'
      : `This version would block ${block} and unblock ${unblock} of the last ${s.judged} decisions` +
          (other ? `; ${other} more would stay blocked for other reasons.` : '.'),
  );
  if (!s.changes.length) return [summary];
  const headers = ['Commit', 'Pull request', 'Now', 'With this version', 'Blockers with this version', 'Not known to shipgate'];
  const rows = s.changes.map((c) =>
    h(
      'tr',
      { dataset: { commit: c.commit_sha } },
      [
        link(`#/releases/${s.repo_root}/${c.commit_sha}`, c.commit_sha.slice(0, 12)),
        c.pull_request === undefined ? '—' : `#${c.pull_request}`,
        pill(c.before.decision),
        pill(c.after.decision),
        c.after.blockers.length
          ? h(
              'ul',
              {},
              c.after.blockers.map((b) => h('li', {}, `${b.code} (${b.component})`)),
            )
          : 'none',
        c.unknown_facts.length
          ? h(
              'ul',
              {},
              c.unknown_facts.map((f) => h('li', {}, f)),
            )
          : '',
      ].map((content, i) => cell(headers[i], content)),
    ),
  );
  return [
    summary,
    h(
      'div.table-box',
      {},
      h(
        'table.grid',
        { id: 'gate-simulation-changes' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            headers.map((x) => h('th', { scope: 'col' }, x)),
          ),
        ),
        h('tbody', {}, rows),
      ),
    ),
  ];
}
