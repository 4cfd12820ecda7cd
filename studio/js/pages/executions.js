import { cents, h, link, pill, replace, select, when } from '../dom.js';
import { hasRole } from '../session.js';
import { pagedList } from './paged-list.js';

export const EXECUTION_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'];

function firstLine(text, max = 90) {
  const line = text.split('\n')[0];
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** Executions, newest first: a status filter, own/all for ADMIN and AUDITOR, "load more". */
export async function executionsPage(view) {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const status = params.get('status') ?? '';
  const scope = hasRole('ADMIN', 'AUDITOR') && params.get('scope') === 'all' ? 'all' : 'own';

  const statusFilter = select('status', [['', 'any status'], ...EXECUTION_STATUSES], status);
  const scopeFilter = hasRole('ADMIN', 'AUDITOR')
    ? select(
        'scope',
        [
          ['own', 'my executions'],
          ['all', 'everyone’s executions'],
        ],
        scope,
      )
    : null;
  const refilter = () => {
    const query = new URLSearchParams();
    if (statusFilter.value) query.set('status', statusFilter.value);
    if (scopeFilter?.value === 'all') query.set('scope', 'all');
    view.go(`#/executions${query.size ? `?${query}` : ''}`);
  };
  statusFilter.addEventListener('change', refilter);
  scopeFilter?.addEventListener('change', refilter);

  const query = new URLSearchParams({ limit: '20' });
  if (status) query.set('status', status);
  if (scope === 'all') query.set('scope', 'all');
  const list = pagedList(view, `/api/v1/executions?${query}`, {
    headers: ['Status', 'Task', 'Policy', 'Cost / budget', 'Created'],
    empty: 'No executions yet.',
    row: (e) => [
      pill(e.status),
      link(`#/executions/${e.id}`, firstLine(e.task)),
      `${e.policy.name} v${e.policy.version}`,
      `${cents(e.cost_cents)} / ${cents(e.budget_cents)}`,
      when(e.created_at),
    ],
  });
  replace(
    view.root,
    h(
      'div.heading',
      {},
      h('h1', {}, 'Executions'),
      hasRole('ADMIN', 'OPERATOR') ? h('a.button', { href: '#/executions/new', id: 'new-task' }, 'New task') : null,
    ),
    h('div.filters', {}, statusFilter, scopeFilter),
    list.element,
  );
  await list.load();
}
