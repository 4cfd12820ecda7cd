import { cents, facts, h, link, replace, table } from '../dom.js';
import { getJson } from '../api.js';

/** @import { Policy, View } from '../../types.js' */

const list = (/** @type {string[]} */ items) => (items.length ? items.join(', ') : 'none');

/** @param {View} view */
export async function policiesPage(view) {
  /** @type {Policy[]} */
  const policies = await getJson('policies', { signal: view.signal });
  replace(
    view.root,
    h('h1', {}, 'Policies'),
    table(
      ['Name', 'Version', 'Kind', 'Denied calls', 'Description'],
      policies.map((p) => [
        link(`#/policies/${encodeURIComponent(p.name)}`, p.name),
        `v${p.version}`,
        p.built_in ? 'built-in preset' : 'custom',
        p.denied_call_severity,
        p.description,
      ]),
    ),
  );
}

/**
 * @param {View} view
 * @param {Record<string, string>} params
 */
export async function policyPage(view, { name }) {
  /** @type {Policy} */
  const p = await getJson(`policies/${encodeURIComponent(name)}`, { signal: view.signal });
  replace(
    view.root,
    h('h1', {}, `Policy ${p.name} v${p.version}`),
    p.description ? h('p', {}, p.description) : null,
    facts([
      ['Kind', p.built_in ? 'built-in preset' : 'custom'],
      ['Aliases', p.aliases.length ? p.aliases.join(', ') : null],
      ['Ceiling', list(p.ceiling)],
      ['Defaults', list(p.defaults)],
      ['Forbidden', list(p.forbidden)],
      ['Denied calls', p.denied_call_severity],
      ['Output rules', list(p.output_rules)],
      ['Max tool calls', String(p.max_tool_calls)],
      ['Max budget', cents(p.max_budget_cents)],
      ['Retention', `${p.retention_days} days`],
      ['Digest', h('code', {}, p.digest)],
    ]),
    h('p', {}, link('#/policies', 'All policies')),
  );
}
