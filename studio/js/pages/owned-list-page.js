import { h, replace, select } from '../dom.js';
import { hasRole } from '../session.js';
import { pagedList } from './paged-list.js';

/** @import { ListColumns, View } from '../../types.js' */

/**
 * The list page of a resource with an owner (`executions`, `workflows`): newest first, a status
 * filter, own/all for ADMIN and AUDITOR (`scope=all`), both kept in the page's hash, and "load
 * more" from the Link header. `create` is the "new" button, shown to ADMIN and OPERATOR.
 * @template T
 * @param {View} view
 * @param {{ resource: string, title: string, statuses: string[], create: { href: string, id: string, label: string }, list: ListColumns<T> }} page
 */
export async function ownedListPage(view, { resource, title, statuses, create, list: columns }) {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const status = params.get('status') ?? '';
  const scope = hasRole('ADMIN', 'AUDITOR') && params.get('scope') === 'all' ? 'all' : 'own';

  const statusFilter = select('status', [['', 'any status'], ...statuses], status);
  const scopeFilter = hasRole('ADMIN', 'AUDITOR')
    ? select(
        'scope',
        [
          ['own', `my ${resource}`],
          ['all', `everyone’s ${resource}`],
        ],
        scope,
      )
    : null;
  const refilter = () => {
    const query = new URLSearchParams();
    if (statusFilter.value) query.set('status', statusFilter.value);
    if (scopeFilter?.value === 'all') query.set('scope', 'all');
    view.go(`#/${resource}${query.size ? `?${query}` : ''}`);
  };
  statusFilter.addEventListener('change', refilter);
  scopeFilter?.addEventListener('change', refilter);

  const query = new URLSearchParams({ limit: '20' });
  if (status) query.set('status', status);
  if (scope === 'all') query.set('scope', 'all');
  const list = pagedList(view, `/api/v1/${resource}?${query}`, columns);
  replace(
    view.root,
    h(
      'div.heading',
      {},
      h('h1', {}, title),
      hasRole('ADMIN', 'OPERATOR') ? h('a.button', { href: create.href, id: create.id }, create.label) : null,
    ),
    h(
      'div.filters',
      {},
      h('label.filter', {}, h('span.label', {}, 'Status'), statusFilter),
      scopeFilter ? h('label.filter', {}, h('span.label', {}, 'Whose'), scopeFilter) : null,
    ),
    list.element,
  );
  await list.load();
}
