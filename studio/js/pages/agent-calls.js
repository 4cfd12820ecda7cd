import { getJson, send } from '../api.js';
import { announce, cell, h, link, pre, replace, when } from '../dom.js';
import { hasRole, session } from '../session.js';
import { errorBox } from './submit-form.js';

/** @import { AgentCallApproval, View } from '../../types.js' */

/** How often the page asks for new held calls while it is open. */
const POLL_MS = 2_000;

/**
 * Why the signed-in person may not decide this call, or null: the API refuses the session's
 * owner and the agent key's creator (docs/mcp-gateway.md, "Asking a person"); the page says so first.
 * @param {AgentCallApproval} call
 */
function notYours(call) {
  const me = session.me()?.id;
  if (call.owner_id === me) return 'You own this agent session: another APPROVER or ADMIN must decide it.';
  if (call.agent_key_creator === me) return 'You created the agent key of this session: another APPROVER or ADMIN must decide it.';
  return null;
}

/**
 * One held call with Approve and Deny (a reason, required to deny); the row leaves the page once decided.
 * @param {AgentCallApproval} call
 * @param {() => void} decided
 */
function callRow(call, decided) {
  const problem = h('div', { 'aria-live': 'polite' });
  const reason = h('input', { type: 'text', name: 'reason', maxLength: 2000, 'aria-label': `Reason for ${call.tool} #${call.seq}` });
  const decide = (/** @type {'approve' | 'deny'} */ decision, /** @type {string} */ text) => {
    const button = h(
      decision === 'approve' ? 'button' : 'button.secondary',
      { type: 'button', 'aria-label': `${text} ${call.tool}` },
      text,
    );
    button.addEventListener('click', async () => {
      button.disabled = true;
      replace(problem);
      try {
        const why = reason.value.trim();
        await send('POST', `agent-calls/${call.id}/${decision}`, why ? { reason: why } : decision === 'deny' ? { reason: '' } : {});
        announce(`${call.tool}: ${decision === 'approve' ? 'approved' : 'denied'}`);
        decided();
      } catch (error) {
        replace(problem, errorBox(error));
        button.disabled = false;
      }
    });
    return button;
  };
  const refusal = notYours(call);
  return h(
    'tr',
    { dataset: { call: call.id } },
    cell('Call', h('code', {}, call.tool), h('div.muted', {}, 'needs ', h('code', {}, call.capability))),
    cell(
      'Session',
      link(`#/executions/${call.execution_id}`, `${call.repo_root ?? 'session'} #${call.seq}`),
      h('div.muted', {}, call.owner_name ?? ''),
    ),
    cell(
      'Arguments',
      call.arguments_truncated
        ? [
            pre(`${call.arguments_excerpt ?? ''}…`),
            h('div.muted', {}, 'Cut to their first 4 KiB: the whole arguments are at GET /api/v1/agent-calls/', h('code', {}, call.id)),
          ]
        : pre(call.arguments),
    ),
    cell('Waiting', when(call.requested_at), h('div.muted', {}, `denied at ${when(call.deadline)}`)),
    cell(
      'Decision',
      refusal
        ? h('p.muted', {}, refusal)
        : h('div', {}, h('label', {}, 'Reason ', reason), h('div.actions', {}, decide('approve', 'Approve'), decide('deny', 'Deny'))),
      problem,
    ),
  );
}

/**
 * The pending calls page (APPROVER, ADMIN): gateway calls a policy puts under `ask`, held open
 * for a person's decision (docs/mcp-gateway.md, "Asking a person"). It asks for new ones every
 * 2 seconds while open; rows already shown stay as they are, so a reason being typed survives.
 * @param {View} view
 */
export async function agentCallsPage(view) {
  if (!hasRole('ADMIN', 'APPROVER')) {
    replace(view.root, h('h1', {}, 'Pending calls'), h('p.notice', {}, 'Only an APPROVER or ADMIN decides held agent calls.'));
    return;
  }
  const body = h('tbody');
  const grid = h(
    'table.grid.agent-calls',
    {},
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Call', 'Session', 'Arguments', 'Waiting', 'Decision'].map((t) => h('th', {}, t)),
      ),
    ),
    body,
  );
  const empty = h('p.notice', {}, 'No agent call is waiting for a decision.');
  const shown = () => {
    empty.hidden = rows.size > 0;
    grid.hidden = rows.size === 0;
  };
  /** @type {Map<string, HTMLElement>} */
  const rows = new Map();
  const draw = async () => {
    /** @type {AgentCallApproval[]} */
    const calls = await getJson('agent-calls/pending?limit=100', { signal: view.signal });
    const ids = new Set(calls.map((c) => c.id));
    for (const [id, row] of rows) {
      if (ids.has(id)) continue;
      row.remove();
      rows.delete(id);
    }
    for (const call of calls) {
      if (rows.has(call.id)) continue;
      const row = callRow(call, () => {
        rows.get(call.id)?.remove();
        rows.delete(call.id);
        shown();
      });
      rows.set(call.id, row);
      body.append(row);
    }
    shown();
  };
  await draw();
  replace(
    view.root,
    h('h1', {}, 'Pending calls'),
    h(
      'p.muted',
      {},
      'Agent calls whose capability the session’s policy puts under ask. The agent waits until you approve or deny, or until the ' +
        'deadline passes (then the call is denied).',
    ),
    empty,
    grid,
  );
  view.every(POLL_MS, async () => {
    await draw();
  });
}
