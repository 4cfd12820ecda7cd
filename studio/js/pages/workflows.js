import { h, link, pill, replace, select, when } from '../dom.js';
import { hasRole } from '../session.js';
import { pagedList } from './paged-list.js';

const WORKFLOW_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'];

/** Workflows, newest first, with the same filters and paging as executions. */
export async function workflowsPage(view) {
  const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const status = params.get('status') ?? '';
  const scope = hasRole('ADMIN', 'AUDITOR') && params.get('scope') === 'all' ? 'all' : 'own';
  const statusFilter = select('status', [['', 'any status'], ...WORKFLOW_STATUSES], status);
  const scopeFilter = hasRole('ADMIN', 'AUDITOR')
    ? select(
        'scope',
        [
          ['own', 'my workflows'],
          ['all', 'everyone’s workflows'],
        ],
        scope,
      )
    : null;
  const refilter = () => {
    const query = new URLSearchParams();
    if (statusFilter.value) query.set('status', statusFilter.value);
    if (scopeFilter?.value === 'all') query.set('scope', 'all');
    view.go(`#/workflows${query.size ? `?${query}` : ''}`);
  };
  statusFilter.addEventListener('change', refilter);
  scopeFilter?.addEventListener('change', refilter);

  const query = new URLSearchParams({ limit: '20' });
  if (status) query.set('status', status);
  if (scope === 'all') query.set('scope', 'all');
  const list = pagedList(view, `/api/v1/workflows?${query}`, {
    headers: ['Status', 'Name', 'Stages', 'Commit', 'Created'],
    empty: 'No workflows yet.',
    row: (w) => [
      pill(w.status),
      link(`#/workflows/${w.id}`, w.name),
      w.stages.map((s) => s.status).join(' → '),
      w.repo_root ? `${w.repo_root}@${(w.commit_sha ?? '').slice(0, 12)}` : '—',
      when(w.created_at),
    ],
  });
  replace(
    view.root,
    h(
      'div.heading',
      {},
      h('h1', {}, 'Workflows'),
      hasRole('ADMIN', 'OPERATOR') ? h('a.button', { href: '#/workflows/new', id: 'new-workflow' }, 'New workflow') : null,
    ),
    h('div.filters', {}, statusFilter, scopeFilter),
    list.element,
  );
  await list.load();
}
