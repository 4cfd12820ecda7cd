import { link, pill } from '../dom.js';
import { ago } from '../format.js';
import { listsEveryone, ownedListEmpty, ownerOf } from './list-empty.js';
import { ownedListPage } from './owned-list-page.js';

/** @import { View, Workflow } from '../../types.js' */

const WORKFLOW_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'];

/**
 * Workflows, newest first, with the same filters and paging as executions.
 * @param {View} view
 */
export function workflowsPage(view) {
  const everyone = listsEveryone();
  return ownedListPage(view, {
    resource: 'workflows',
    title: 'Workflows',
    statuses: WORKFLOW_STATUSES,
    create: { href: '#/workflows/new', id: 'new-workflow', label: 'New workflow' },
    list: {
      headers: ['Status', 'Name', 'Stages', 'Commit', 'Created', ...(everyone ? ['Owner'] : [])],
      empty: ownedListEmpty('workflows', 'New workflow'),
      row: (/** @type {Workflow} */ w) => [
        pill(w.status),
        link(`#/workflows/${w.id}`, w.name),
        w.stages.map((s) => s.status).join(' → '),
        w.repo_root ? `${w.repo_root}@${(w.commit_sha ?? '').slice(0, 12)}` : '—',
        ago(w.created_at),
        ...(everyone ? [ownerOf(w)] : []),
      ],
    },
  });
}
