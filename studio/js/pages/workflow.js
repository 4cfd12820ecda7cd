import { getJson, send } from '../api.js';
import { facts, h, link, pill, replace, when } from '../dom.js';
import { pollWhileLive, runActions } from './run-page.js';

/** @import { View, Workflow, WorkflowCancel, WorkflowStage } from '../../types.js' */

/** @param {WorkflowStage} stage */
function stageItem(stage) {
  return h(
    `li.stage.stage-${stage.status}`,
    { dataset: { stage: stage.id } },
    h(
      'div.call-head',
      {},
      h('strong', {}, stage.name),
      ' ',
      h('code', {}, stage.id),
      ' ',
      h('span.muted', {}, stage.stage_role),
      ' ',
      pill(stage.status),
      stage.execution_id ? [' ', link(`#/executions/${stage.execution_id}`, 'execution')] : null,
    ),
    stage.upstream_stage_ids.length ? h('p.muted', {}, `after ${stage.upstream_stage_ids.join(', ')}`) : null,
    stage.blocked_reasons.length
      ? h(
          'ul.blocked',
          {},
          stage.blocked_reasons.map((reason) => h('li.reason', {}, reason)),
        )
      : null,
    stage.dropped_permissions.length
      ? h('p.muted', {}, 'Dropped: ', stage.dropped_permissions.map((d) => `${d.permission} (${d.reason})`).join(', '))
      : null,
    stage.output_summary ? h('p.summary', {}, stage.output_summary) : null,
    h('p.muted', {}, `${stage.compliance_policy} · started ${when(stage.started_at)} · finished ${when(stage.finished_at)}`),
  );
}

/**
 * A workflow's stage timeline, refreshed while it runs; cancel and export.
 * @param {View} view
 * @param {Record<string, string>} params
 */
export async function workflowPage(view, { id }) {
  const message = h('p.notice', { role: 'status' });
  const path = `workflows/${encodeURIComponent(id)}`;
  /** @type {Workflow} */
  let workflow = await getJson(path, { signal: view.signal });

  /** @param {Workflow} w */
  function draw(w) {
    workflow = w;
    replace(
      view.root,
      h(
        'div.heading',
        {},
        h('h1', {}, w.name),
        runActions(w, message, {
          cancel: {
            id: 'cancel-workflow',
            onclick: async () => {
              /** @type {WorkflowCancel} */
              const cancelled = await send('DELETE', path);
              message.textContent = `Cancelled stages: ${cancelled.cancelled_stage_ids.join(', ') || 'none'}.`;
              draw(await getJson(path));
            },
          },
          auditPackage: {
            id: 'export-workflow',
            label: 'Export audit package',
            url: `/api/v1/${path}/export`,
            filename: `shipgate-workflow-${w.id}.json`,
          },
        }),
      ),
      w.description ? h('p', {}, w.description) : null,
      facts([
        ['Status', h('span', { id: 'workflow-status' }, pill(w.status))],
        [
          'Commit',
          w.repo_root && w.commit_sha
            ? h('a', { href: `#/releases/${w.repo_root}/${w.commit_sha}` }, `${w.repo_root}@${w.commit_sha.slice(0, 12)}`)
            : null,
        ],
        ['Created', when(w.created_at)],
        ['Finished', w.finished_at ? when(w.finished_at) : null],
        ['Id', h('code', {}, w.id)],
      ]),
      h('h2', {}, 'Stages'),
      h('ol.timeline', { id: 'stages' }, w.stages.map(stageItem)),
      message,
    );
  }

  draw(workflow);
  pollWhileLive(view, path, () => workflow, draw);
}
