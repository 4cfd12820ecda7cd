import { h, pill, replace, select } from '../dom.js';
import { ago } from '../format.js';
import { hasRole } from '../session.js';
import { pagedList } from './paged-list.js';

/** @import { GitHubDelivery, View } from '../../types.js' */

const OUTCOMES = ['queued', 'processed', 'failed', 'ignored', 'duplicate'];

/** @param {number | null} ms */
function took(ms) {
  if (ms === null) return '';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** @param {GitHubDelivery} d */
function outcomeCell(d) {
  return h(
    'span.actions',
    {},
    pill(d.outcome),
    d.duplicates > 0 ? [' ', h('span.tag.duplicate', { title: `last at ${d.last_duplicate_at}` }, `duplicate ×${d.duplicates}`)] : null,
    d.recovery_redeliveries > 0 ? [' ', h('span.tag', {}, 'redelivered by recovery')] : null,
  );
}

/** @param {GitHubDelivery} d */
function reason(d) {
  if (!d.reason) return d.outcome === 'queued' ? h('span.muted', {}, 'waiting for the worker') : null;
  if (d.outcome === 'queued') return h('span', {}, `Attempt ${d.attempts} failed, retrying: ${d.reason}`);
  return h('span', { class: d.outcome === 'failed' ? 'error' : undefined }, d.reason);
}

/**
 * What GitHub refused to take from shipgate for this delivery: never retried, so it stays
 * missing on GitHub until the cause (a permission, a deleted pull request) is fixed.
 * @param {GitHubDelivery} d
 */
function refusals(d) {
  return d.rejections.map((r) =>
    h('div.error', { 'data-rejection': r.request }, `GitHub refused ${r.request} (${r.status}): ${r.message}`),
  );
}

/** @param {GitHubDelivery} d */
function reasonCell(d) {
  return h('div', {}, reason(d), refusals(d));
}

/** @param {GitHubDelivery} d */
function timingCell(d) {
  if (!d.started_at) return h('span.muted', {}, '—');
  return h(
    'span',
    {},
    d.finished_at ? took(d.duration_ms) : 'running',
    d.attempts > 1 ? h('span.muted', {}, ` (${d.attempts} attempts)`) : null,
  );
}

/**
 * The webhook deliveries shipgate received (ADMIN), newest first, filtered by outcome: the page to
 * open when a check did not show up (docs/github-app.md, "When the check didn't show up").
 * @param {View} view
 */
export async function deliveriesPage(view) {
  if (!hasRole('ADMIN')) {
    replace(view.root, h('h1', {}, 'Deliveries'), h('p.notice', {}, 'Only an ADMIN sees the GitHub deliveries.'));
    return;
  }
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const outcome = OUTCOMES.includes(params.get('outcome') ?? '') ? /** @type {string} */ (params.get('outcome')) : '';
  const filter = select('outcome', [['', 'any outcome'], ...OUTCOMES], outcome);
  filter.id = 'outcome-filter';
  filter.addEventListener('change', () => view.go(`#/deliveries${filter.value ? `?outcome=${filter.value}` : ''}`));
  const query = new URLSearchParams({ limit: '50' });
  if (outcome) query.set('outcome', outcome);
  const list = pagedList(view, `/api/v1/github/deliveries?${query}`, {
    headers: ['Received', 'Event', 'Repository', 'Outcome', 'Reason', 'Took', 'Delivery'],
    empty: outcome
      ? `No ${outcome} delivery in the last 30 days.`
      : 'No delivery received in the last 30 days: check the App’s webhook URL and secret on GitHub (docs/github-app.md).',
    unwrap: (json) => /** @type {{ deliveries: GitHubDelivery[] }} */ (json).deliveries,
    row: (/** @type {GitHubDelivery} */ d) => [
      ago(d.received_at),
      d.action ? `${d.event}.${d.action}` : d.event,
      d.repo_root ? h('a', { href: `#/repos/${d.repo_root}` }, d.repo_root) : h('span.muted', {}, '—'),
      outcomeCell(d),
      reasonCell(d),
      timingCell(d),
      h('code', { 'data-delivery': d.delivery_id }, d.delivery_id),
    ],
  });
  replace(
    view.root,
    h('h1', {}, 'Deliveries'),
    h(
      'p.muted',
      {},
      'The webhook deliveries GitHub sent shipgate in the last 30 days, newest first. A failed one shows why; a duplicate ' +
        'is GitHub sending a delivery shipgate already had (nothing is done twice). ',
      h('a', { href: '#/installations' }, 'Installations'),
      ' shows which repositories the App may read.',
    ),
    h('div.filters', {}, h('label.filter', {}, h('span.label', {}, 'Outcome'), filter)),
    h('div', { id: 'deliveries-list' }, list.element),
  );
  await list.load();
}
