import { download, getJson } from '../api.js';
import { h } from '../dom.js';
import { hasRole, session } from '../session.js';

/** Statuses in which a run (an execution, a workflow) may still change. */
export const LIVE = new Set(['queued', 'running']);

const POLL_MS = 1000;

/**
 * A run's buttons, shown as the API would allow (they only hide controls): "Cancel" while it is
 * queued or running, for its owner and ADMIN; its audit package for its owner, ADMIN and AUDITOR,
 * with the saved file's name in `message`.
 */
export function runActions(run, message, { cancel, auditPackage }) {
  const mine = run.owner_id === session.me()?.id;
  return h(
    'div.actions',
    {},
    LIVE.has(run.status) && (mine || hasRole('ADMIN'))
      ? h('button.danger', { type: 'button', id: cancel.id, onclick: cancel.onclick }, 'Cancel')
      : null,
    mine || hasRole('ADMIN', 'AUDITOR')
      ? h(
          'button.secondary',
          {
            type: 'button',
            id: auditPackage.id,
            onclick: async () => {
              message.textContent = `Downloaded ${await download(auditPackage.url, auditPackage.filename)}`;
            },
          },
          auditPackage.label,
        )
      : null,
  );
}

/**
 * Redraws the run from `path` every second while `latest()` (what the page shows) is live; stops
 * when it finishes or the page is left.
 */
export function pollWhileLive(view, path, latest, draw) {
  view.every(POLL_MS, async () => {
    if (!LIVE.has(latest().status)) return false;
    draw(await getJson(path, { signal: view.signal }));
    return LIVE.has(latest().status);
  });
}
