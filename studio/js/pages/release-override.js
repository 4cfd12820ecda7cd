import { send } from '../api.js';
import { field, h, replace, select, when } from '../dom.js';
import { ago, duration } from '../format.js';
import { hasRole } from '../session.js';
import { errorBox, onSubmit } from './submit-form.js';

/** @import { Overridden, ReleaseDecision } from '../../types.js' */

/** How long an override may last, as offered: the API takes up to 7 days (docs/release-gate.md, "Overrides"). */
const EXPIRY_PRESETS = [3_600, 4 * 3_600, 86_400, 3 * 86_400, 7 * 86_400];
/** Long enough to ship a fix, short enough that nobody forgets it is there. */
const DEFAULT_EXPIRY = 4 * 3_600;

/** A blocker as a person names it: its code on its component. @param {{ code: string, component: string }} b */
const blockerName = (b) => `${b.code} on ${b.component}`;

/**
 * One override in force: who (their GitHub login), why, until when, what it lifts; a Revoke button
 * for ADMIN and APPROVER (the API lets the overrider and the repository's maintainers, and says why not to others).
 * @param {Overridden} o
 * @param {() => Promise<void>} reload
 */
function overriddenItem(o, reload) {
  const problem = h('div', { 'aria-live': 'polite' });
  const revoke = hasRole('ADMIN', 'APPROVER')
    ? h('button.secondary', { type: 'button', 'aria-label': `Revoke the override by @${o.by}` }, 'Revoke')
    : null;
  revoke?.addEventListener('click', async () => {
    revoke.disabled = true;
    replace(problem);
    try {
      await send('DELETE', `releases/overrides/${o.id}`);
      await reload();
    } catch (error) {
      replace(problem, errorBox(error));
      revoke.disabled = false;
    }
  });
  return h(
    'li.override',
    { dataset: { overrideId: o.id } },
    h('p', {}, 'Override by ', h('strong.override-by', {}, `@${o.by}`), ' until ', when(o.expires_at), ' (', ago(o.expires_at), ')'),
    h('blockquote.override-reason', {}, o.reason),
    h(
      'p',
      {},
      'Lifts ',
      o.blockers.map((b, i) => [i > 0 ? ', ' : '', h('code', {}, blockerName(b))]),
    ),
    revoke ? h('div.actions', {}, revoke) : null,
    problem,
  );
}

/**
 * The form that overrides some of a blocked commit's blockers (POST /releases/overrides): which
 * blockers, why, for how long. Every blocker is offered: whether one may be overridden (never
 * `certificate_invalid`, nothing of a rule marked `overridable: false`) and whether the caller is
 * independent of the change is the API's to decide, and its `detail` is shown as it says it.
 * @param {ReleaseDecision} d
 * @param {() => Promise<void>} overridden
 */
function overrideForm(d, overridden) {
  const components = [...new Set(d.blockers.map((b) => b.component))];
  const boxes = components.map((component) => h('input', { type: 'checkbox', name: 'blockers', value: component }));
  const reason = h('textarea', {
    name: 'reason',
    id: 'override-reason',
    required: true,
    minLength: 20,
    maxLength: 2000,
    rows: 3,
    placeholder: 'e.g. Outage fix: the build check is flaky on the runner, verified by hand.',
  });
  const expiry = select(
    'expires_in_seconds',
    EXPIRY_PRESETS.map((s) => [String(s), duration(s)]),
    String(DEFAULT_EXPIRY),
  );
  const problem = h('div', { id: 'override-problem', 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', id: 'override-submit' }, 'Override');
  const form = h(
    'form.card',
    { id: 'override-form', hidden: true, 'aria-labelledby': 'override-title' },
    h('h3', { id: 'override-title' }, 'Override blockers of this commit'),
    h(
      'p.muted',
      {},
      'The override lifts exactly the blockers you choose, on this commit only, until it expires or is revoked. ' +
        'It is recorded with your name and reason, shown on the check run and bound into the signed release.',
    ),
    h(
      'fieldset.override-blockers',
      {},
      h('legend', {}, 'Blockers to override'),
      components.map((component, i) =>
        h(
          'label.check',
          {},
          boxes[i],
          ' ',
          d.blockers.filter((b) => b.component === component).map((b, j) => [j > 0 ? ', ' : '', h('code', {}, blockerName(b))]),
        ),
      ),
    ),
    field('Reason', reason, '20–2000 characters; shown on the check run and the pull request comment.'),
    field('Lasts', expiry, 'At most 7 days; revoke it sooner when it is no longer needed.'),
    h('div.actions', {}, submit, h('button.secondary', { type: 'button', onclick: () => (form.hidden = true) }, 'Cancel')),
    problem,
  );
  // On success the page is drawn again from the new decision, so the button stays disabled.
  onSubmit(form, submit, problem, async () => {
    const blockers = boxes.filter((box) => box.checked).map((box) => box.value);
    if (blockers.length === 0) throw new Error('Choose at least one blocker to override.');
    await send('POST', 'releases/overrides', {
      repo_root: d.repo_root,
      commit_sha: d.commit_sha,
      blockers,
      reason: reason.value.trim(),
      expires_in_seconds: Number(expiry.value),
    });
    await overridden();
  });
  const open = h('button.secondary', { type: 'button', id: 'open-override' }, 'Override');
  open.addEventListener('click', () => {
    form.hidden = false;
    form.scrollIntoView({ block: 'start' });
    boxes[0]?.focus();
  });
  return [h('p', {}, open, ' ', h('span.muted', {}, 'Ship despite a blocker, on the record.')), form];
}

/**
 * The release page's override parts (docs/release-gate.md, "Overrides"): the overrides in force
 * (`overridden`, null when none) and, on a blocked commit for ADMIN and APPROVER, the Override action.
 * @param {ReleaseDecision} d
 * @param {() => Promise<void>} reload
 */
export function overrideParts(d, reload) {
  return {
    overridden:
      d.overridden.length > 0
        ? [
            h('h2', {}, 'Overridden'),
            h(
              'ul.overrides',
              { id: 'overridden' },
              d.overridden.map((o) => overriddenItem(o, reload)),
            ),
          ]
        : null,
    action: d.decision === 'NO_SHIP' && d.blockers.length > 0 && hasRole('ADMIN', 'APPROVER') ? overrideForm(d, reload) : null,
  };
}
