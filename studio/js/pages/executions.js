import { cents, link, pill } from '../dom.js';
import { ago } from '../format.js';
import { listsEveryone, ownedListEmpty, ownerOf } from './list-empty.js';
import { ownedListPage } from './owned-list-page.js';

/** @import { ExecutionSummary, View } from '../../types.js' */

export const EXECUTION_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'];

/** @param {string} text */
function firstLine(text, max = 90) {
  const line = text.split('\n')[0];
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/**
 * Executions, newest first: a status filter, own/all for ADMIN and AUDITOR, "load more".
 * @param {View} view
 */
export function executionsPage(view) {
  const everyone = listsEveryone();
  return ownedListPage(view, {
    resource: 'executions',
    title: 'Executions',
    statuses: EXECUTION_STATUSES,
    create: { href: '#/executions/new', id: 'new-task', label: 'New task' },
    list: {
      headers: ['Status', 'Task', 'Policy', 'Cost / budget', 'Created', ...(everyone ? ['Owner'] : [])],
      empty: ownedListEmpty('executions', 'New task'),
      row: (/** @type {ExecutionSummary} */ e) => [
        pill(e.status),
        link(`#/executions/${e.id}`, firstLine(e.task)),
        `${e.policy.name} v${e.policy.version}`,
        `${cents(e.cost_cents)} / ${cents(e.budget_cents)}`,
        ago(e.created_at),
        ...(everyone ? [ownerOf(e)] : []),
      ],
    },
  });
}
