import { getJson, send } from '../api.js';
import { cents, facts, h, link, pill, pre, replace, table, when } from '../dom.js';
import { LIVE, pollWhileLive, runActions } from './run-page.js';

/** @import { Child, Execution, View } from '../../types.js' */

/** @param {Execution['tool_calls']} calls */
function toolCallTimeline(calls) {
  if (calls.length === 0) return h('p.muted', {}, 'No tool calls yet.');
  return h(
    'ol.timeline',
    { id: 'tool-calls' },
    calls.map((call) =>
      h(
        `li.call.call-${call.verdict}`,
        { dataset: { seq: String(call.seq) } },
        h(
          'div.call-head',
          {},
          h('span.seq', {}, `#${call.seq}`),
          ' ',
          h('code.tool', {}, call.tool),
          ' ',
          pill(call.verdict),
          call.capability ? h('span.muted', {}, ` needs ${call.capability}`) : null,
          call.reason ? h('span.reason', {}, ` reason: ${call.reason}`) : null,
          h('span.muted', {}, ` · ${call.duration_ms} ms · ${when(call.created_at)}`),
        ),
        h('details', { dataset: { key: `${call.seq}-arguments` } }, h('summary', {}, 'Arguments'), pre(call.arguments)),
        call.output !== null
          ? h('details', { dataset: { key: `${call.seq}-output` } }, h('summary', {}, 'Output'), pre(call.output))
          : null,
      ),
    ),
  );
}

/** @param {Execution['certificates']} certificates */
function certificatesTable(certificates) {
  if (certificates.length === 0) return h('p.muted', {}, 'No certificates yet.');
  return table(
    ['Kind', 'Theorem', 'Digest', 'Issued'],
    certificates.map((c) => [c.kind, c.theorem, h('code', {}, c.digest), when(c.issued_at)]),
  );
}

/** @param {Execution['artifacts']} artifacts */
function artifactsList(artifacts) {
  if (artifacts.length === 0) return h('p.muted', {}, 'No artifacts.');
  return artifacts.map((a) =>
    h(
      'div.artifact',
      {},
      h(
        'h3',
        {},
        `${a.kind}: ${a.name}`,
        a.approved_for_release === undefined ? '' : a.approved_for_release ? ' (approved for release)' : ' (not approved)',
      ),
      pre(a.content),
    ),
  );
}

/**
 * @param {Execution} e
 * @param {Child} actions
 */
function content(e, actions) {
  return [
    h('div.heading', {}, h('h1', {}, 'Execution'), actions),
    facts([
      ['Status', h('span', { id: 'execution-status' }, pill(e.status))],
      ['Verdict', e.verdict ? h('span', { id: 'execution-verdict' }, pill(e.verdict)) : '—'],
      ['Cost / budget', `${cents(e.cost_cents)} of ${cents(e.budget_cents)}`],
      ['Policy', `${e.policy.name} v${e.policy.version}`],
      [
        'Provider',
        e.provider
          ? `${e.provider} · ${e.model}${e.api_key_override ? ' · own key' : ''}`
          : 'agent session: the agent brings its own model',
      ],
      ['Permissions', e.permissions.join(', ') || 'none'],
      ['Workflow', e.workflow_id ? link(`#/workflows/${e.workflow_id}`, e.stage_id ?? e.workflow_id) : null],
      [
        'Commit',
        e.repo_root && e.commit_sha
          ? link(`#/releases/${e.repo_root}/${e.commit_sha}`, `${e.repo_root}@${e.commit_sha.slice(0, 12)}`)
          : null,
      ],
      ['Created', when(e.created_at)],
      ['Finished', e.finished_at ? when(e.finished_at) : null],
      ['Id', h('code', {}, e.id)],
    ]),
    e.error ? h('p.error', { id: 'execution-error' }, `${e.error.code}: ${e.error.message}`) : null,
    e.violations.length
      ? h(
          'div.error',
          {},
          h('p', {}, 'Violations'),
          h(
            'ul',
            {},
            e.violations.map((v) => h('li', {}, v)),
          ),
        )
      : null,
    h('h2', {}, 'Task'),
    pre(e.task),
    h('h2', {}, 'Tool calls'),
    toolCallTimeline(e.tool_calls),
    h('h2', {}, 'Output'),
    e.output !== null ? h('div', { id: 'execution-output' }, pre(e.output)) : h('p.muted', {}, LIVE.has(e.status) ? 'Not yet.' : 'None.'),
    h('h2', {}, 'Artifacts'),
    artifactsList(e.artifacts),
    h('h2', {}, 'Certificates'),
    certificatesTable(e.certificates),
  ];
}

/**
 * One execution, refreshed every second while it is queued or running.
 * @param {View} view
 * @param {Record<string, string>} params
 */
export async function executionPage(view, { id }) {
  const message = h('p.notice', { role: 'status' });
  const path = `executions/${encodeURIComponent(id)}`;
  /** @type {Execution} */
  let execution = await getJson(path, { signal: view.signal });

  /** @param {Execution} e */
  function actions(e) {
    return runActions(e, message, {
      cancel: {
        id: 'cancel-execution',
        onclick: async () => {
          draw(await send('DELETE', `executions/${e.id}`));
          message.textContent = 'Cancellation requested.';
        },
      },
      auditPackage: {
        id: 'download-audit',
        label: 'Download audit package',
        url: `/api/v1/compliance/${e.id}/export`,
        filename: `shipgate-execution-${e.id}.json`,
      },
    });
  }

  /** @param {Execution} e */
  function draw(e) {
    execution = e;
    // A refresh keeps what the reader opened.
    const open = new Set([...view.root.querySelectorAll('details[open]')].map((d) => /** @type {HTMLElement} */ (d).dataset.key));
    replace(view.root, content(e, actions(e)), message);
    for (const details of view.root.querySelectorAll('details')) details.open = open.has(details.dataset.key);
  }

  draw(execution);
  pollWhileLive(view, path, () => execution, draw);
}
