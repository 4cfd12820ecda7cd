import { h } from '../dom.js';

/** @import { GateVersion } from '../../types.js' */

/**
 * One difference between two gates: a field whose value changed, or a list entry / map key only one side has.
 * @typedef {{ path: string, before: string | null, after: string | null }} GateChange
 */

/** @param {unknown} value */
const text = (value) => (typeof value === 'string' ? value : JSON.stringify(value));

/** @param {unknown} value */
const isMap = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * What changed from `before` to `after`, field by field (dotted paths; lists compared entry by entry).
 * @param {unknown} before
 * @param {unknown} after
 * @param {string} [path]
 * @returns {GateChange[]}
 */
export function gateChanges(before, after, path = '') {
  if (isMap(before) && isMap(after)) {
    const a = /** @type {Record<string, unknown>} */ (before);
    const b = /** @type {Record<string, unknown>} */ (after);
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((key) => {
      const at = path ? `${path}.${key}` : key;
      if (!(key in b)) return [{ path: at, before: text(a[key]), after: null }];
      if (!(key in a)) return [{ path: at, before: null, after: text(b[key]) }];
      return gateChanges(a[key], b[key], at);
    });
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const a = before.map((item) => JSON.stringify(item));
    const b = after.map((item) => JSON.stringify(item));
    return [
      ...before.filter((_, i) => !b.includes(a[i])).map((item) => ({ path, before: text(item), after: null })),
      ...after.filter((_, i) => !a.includes(b[i])).map((item) => ({ path, before: null, after: text(item) })),
    ];
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path, before: text(before), after: text(after) }];
}

/**
 * The differences between two versions as a table (or a sentence when they hold the same gate).
 * @param {GateVersion} from
 * @param {GateVersion} to
 */
export function diffView(from, to) {
  const changes = gateChanges(from.gate, to.gate);
  const title = `Changes from version ${from.version} to version ${to.version}`;
  if (!changes.length) return h('p.muted', { id: 'gate-diff' }, `${title}: none, both hold the same gate.`);
  return h(
    'div.table-box',
    { id: 'gate-diff' },
    h(
      'table.grid.gate-diff',
      {},
      h('caption', {}, title),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Field'),
          h('th', { scope: 'col' }, `Version ${from.version}`),
          h('th', { scope: 'col' }, `Version ${to.version}`),
        ),
      ),
      h(
        'tbody',
        {},
        changes.map((change) =>
          h(
            'tr',
            { dataset: { path: change.path } },
            h('th', { scope: 'row', 'data-label': 'Field' }, h('code', {}, change.path)),
            h('td.removed', { 'data-label': `Version ${from.version}` }, change.before === null ? '—' : h('del', {}, change.before)),
            h('td.added', { 'data-label': `Version ${to.version}` }, change.after === null ? '—' : h('ins', {}, change.after)),
          ),
        ),
      ),
    ),
  );
}
