import { download, getJson } from '../api.js';
import { announce, h } from '../dom.js';
import { hasRole, session } from '../session.js';

/** @import { RunAction, View } from '../../types.js' */

/** Statuses in which a run (an execution, a workflow) may still change. */
export const LIVE = new Set(['queued', 'running']);

const POLL_MS = 1000;

/**
 * A run's buttons, shown as the API would allow (they only hide controls): "Cancel" while it is
 * queued or running, for its owner and ADMIN; its audit package for its owner, ADMIN and AUDITOR,
 * with the saved file's name and the command that verifies it against the published keys in `message`.
 * @param {{ owner_id: string, status: string }} run
 * @param {HTMLElement} message
 * @param {{ cancel: RunAction, auditPackage: { id: string, label: string, url: string, filename: string } }} actions
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
              const name = await download(auditPackage.url, auditPackage.filename);
              // Without the service's published keys, `shipgate verify` proves integrity only (docs/api.md).
              message.replaceChildren(
                `Downloaded ${name}. To verify who signed it: `,
                h(
                  'code',
                  { id: 'verify-command' },
                  `curl ${location.origin}/api/v1/compliance/keys > keys.json && shipgate verify ${name} --keys keys.json`,
                ),
              );
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
 * @template {{ status: string }} R
 * @param {View} view
 * @param {string} path
 * @param {() => R} latest
 * @param {(run: R) => void} draw
 */
export function pollWhileLive(view, path, latest, draw) {
  view.every(POLL_MS, async () => {
    const before = latest().status;
    if (!LIVE.has(before)) return false;
    draw(await getJson(path, { signal: view.signal }));
    if (latest().status !== before) announce(`Status: ${latest().status}`);
    return LIVE.has(latest().status);
  });
}
