import { getJson, send } from '../api.js';
import { field, h, replace, select } from '../dom.js';
import { optional } from './form-values.js';
import { runFields } from './new-task.js';
import { onSubmit } from './submit-form.js';

/** @import { Policy, View, Workflow } from '../../types.js' */

const STAGE_ROLES = ['worker', 'intake', 'reviewer', 'release'];
const MAX_STAGES = 12;

/**
 * A stage card: its id (what later stages name), role, task and run fields, and checkboxes for
 * the earlier stages it depends on. Upstream choices are kept by position, so renaming an id
 * carries over.
 * @param {number} index
 * @param {Policy[]} policies
 * @param {() => void} onIdChange
 */
function stageEditor(index, policies, onIdChange) {
  const id = h('input', { name: 'stage_id', value: `stage-${index + 1}`, pattern: '[A-Za-z0-9._\\-]{1,64}', required: true });
  const name = h('input', { name: 'stage_name', value: `Stage ${index + 1}`, required: true, maxlength: 120 });
  const role = select('stage_role', STAGE_ROLES, 'worker');
  const task = h('textarea', { name: 'stage_task', rows: 3, required: true });
  const run = runFields(policies);
  /** @type {Set<number>} */
  const upstream = new Set();
  const upstreamBox = h('div.upstream');
  id.addEventListener('input', onIdChange);
  const element = h(
    'fieldset.stage-editor',
    { dataset: { index: String(index) } },
    h('legend', {}, `Stage ${index + 1}`),
    h('div.row', {}, field('Stage id', id), field('Name', name), field('Role', role)),
    field('Task', task),
    upstreamBox,
    run.element,
  );
  return {
    element,
    id: () => id.value.trim(),
    upstream,
    /**
     * Redraws the upstream checkboxes from the earlier stages' current ids.
     * @param {string[]} earlierIds
     */
    drawUpstream(earlierIds) {
      for (const i of [...upstream]) if (i >= earlierIds.length) upstream.delete(i);
      replace(
        upstreamBox,
        earlierIds.length
          ? h(
              'div.field',
              {},
              h('span.label', {}, 'Runs after (upstream stages)'),
              earlierIds.map((earlierId, i) => {
                const box = h('input', { type: 'checkbox', name: 'upstream', value: earlierId, checked: upstream.has(i) });
                box.addEventListener('change', () => (box.checked ? upstream.add(i) : upstream.delete(i)));
                return h('label.check', {}, box, ` ${earlierId || `stage ${i + 1}`}`);
              }),
            )
          : null,
      );
    },
    value: (/** @type {string[]} */ ids) => ({
      id: id.value.trim(),
      name: name.value.trim(),
      stage_role: role.value,
      task: task.value,
      ...run.values(),
      upstream_stage_ids: [...upstream].sort((a, b) => a - b).map((i) => ids[i]),
    }),
  };
}

/** The workflow builder: name, stages with ids and upstream pickers, an optional commit binding. */
/** @param {View} view */
export async function newWorkflowPage(view) {
  /** @type {Policy[]} */
  const policies = await getJson('policies', { signal: view.signal });
  const name = h('input', { name: 'name', required: true, maxlength: 160 });
  const description = h('input', { name: 'description', maxlength: 400 });
  const repoRoot = h('input', { name: 'repo_root', placeholder: 'owner/repo (optional)' });
  const commitSha = h('input', { name: 'commit_sha', placeholder: '40-character SHA (optional)' });
  const stagesBox = h('div', { id: 'stages-editor' });
  /** @type {ReturnType<typeof stageEditor>[]} */
  const stages = [];
  const problem = h('div');
  const submit = h('button', { type: 'submit' }, 'Start workflow');
  const addStage = h('button.secondary', { type: 'button', id: 'add-stage' }, 'Add stage');

  const redrawUpstream = () => stages.forEach((stage, i) => stage.drawUpstream(stages.slice(0, i).map((s) => s.id())));
  function add() {
    const stage = stageEditor(stages.length, policies, redrawUpstream);
    stages.push(stage);
    stagesBox.append(stage.element);
    redrawUpstream();
    addStage.hidden = stages.length >= MAX_STAGES;
  }
  addStage.addEventListener('click', add);
  add();

  const form = h(
    'form.card',
    { id: 'new-workflow-form' },
    h('h1', {}, 'New workflow'),
    field('Name', name),
    field('Description', description),
    h('div.row', {}, field('Repository', repoRoot), field('Commit', commitSha)),
    h('p.muted', {}, 'Bind the workflow to a commit to count it as release evidence for that commit.'),
    stagesBox,
    addStage,
    problem,
    submit,
  );
  onSubmit(form, submit, problem, async () => {
    const ids = stages.map((s) => s.id());
    const body = {
      name: name.value.trim(),
      description: optional(description),
      stages: stages.map((s) => s.value(ids)),
      repo_root: optional(repoRoot),
      commit_sha: optional(commitSha),
    };
    /** @type {Workflow} */
    const workflow = await send('POST', 'workflows', body);
    view.go(`#/workflows/${workflow.id}`);
  });
  replace(view.root, form);
}
