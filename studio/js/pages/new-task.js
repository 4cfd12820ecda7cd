import { getJson, send } from '../api.js';
import { field, h, replace, select } from '../dom.js';
import { capabilityList, optional } from './form-values.js';
import { onSubmit } from './submit-form.js';

/** @import { Execution, Policy, View } from '../../types.js' */

/**
 * The policy, budget, permission and provider fields shared by a task and a workflow stage.
 * @param {Policy[]} policies
 * @param {{ policy?: string }} [defaults]
 */
export function runFields(policies, defaults = {}) {
  const controls = {
    policy: select(
      'compliance_policy',
      policies.map((p) => /** @type {[string, string]} */ ([p.name, `${p.name} (v${p.version})`])),
      defaults.policy ?? 'default',
    ),
    budget: h('input', { name: 'budget_cents', type: 'number', min: 100, max: 1000000, step: 1, value: '1500', required: true }),
    permissions: h('input', { name: 'permissions', placeholder: 'the policy’s defaults', autocomplete: 'off' }),
    provider: select(
      'provider',
      [
        ['', 'server default'],
        ['openai', 'openai'],
        ['anthropic', 'anthropic'],
      ],
      '',
    ),
    model: h('input', { name: 'model', placeholder: 'server default', autocomplete: 'off' }),
    // Sent once with the request; never kept by the studio (the server encrypts it and erases it after the run).
    apiKey: h('input', { name: 'api_key', type: 'password', autocomplete: 'off', placeholder: 'the server’s key' }),
  };
  const element = h(
    'div.fieldset',
    {},
    field('Compliance policy', controls.policy),
    field('Budget (cents)', controls.budget),
    field('Permissions', controls.permissions, 'Capabilities separated by commas, e.g. repo:read, document:write:reports.'),
    h('div.row', {}, field('Provider', controls.provider), field('Model', controls.model)),
    field('Provider API key (optional)', controls.apiKey, 'Used for this run only; not stored by the studio.'),
  );
  const values = () => ({
    compliance_policy: controls.policy.value,
    budget_cents: Number(controls.budget.value),
    permissions: capabilityList(controls.permissions.value),
    provider: optional(controls.provider),
    model: optional(controls.model),
    api_key: optional(controls.apiKey),
  });
  return { element, values, clearSecret: () => (controls.apiKey.value = '') };
}

/** @param {View} view */
export async function newTaskPage(view) {
  /** @type {Policy[]} */
  const policies = await getJson('policies', { signal: view.signal });
  const task = h('textarea', { name: 'task', rows: 6, required: true, maxlength: 20000 });
  const run = runFields(policies);
  const problem = h('div');
  const submit = h('button', { type: 'submit' }, 'Start');
  const form = h(
    'form.card',
    { id: 'new-task-form' },
    h('h1', {}, 'New task'),
    field('Task', task, 'Reaches the model verbatim.'),
    run.element,
    problem,
    submit,
  );
  onSubmit(form, submit, problem, async () => {
    /** @type {Execution} */
    const execution = await send('POST', 'tasks', { task: task.value, ...run.values() });
    run.clearSecret();
    view.go(`#/executions/${execution.id}`);
  });
  replace(view.root, form);
}
