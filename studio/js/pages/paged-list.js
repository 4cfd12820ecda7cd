import { nextLink, request } from '../api.js';
import { cell, h, replace } from '../dom.js';

/** @import { ListColumns, View } from '../../types.js' */

/**
 * A list that follows the API's `Link: rel="next"` header: the first page now, the next one when
 * "Load more" is pressed (the button disappears when there is none). `rowOf` draws an item's row
 * afresh (to replace one whose item changed).
 * @template T
 * @param {View} view
 * @param {string} firstUrl
 * @param {ListColumns<T>} columns
 */
export function pagedList(
  view,
  firstUrl,
  { headers, row, empty, unwrap = (json) => /** @type {T[]} */ (json), rowProps = () => ({}), name, onPage = () => {} },
) {
  const body = h('tbody');
  const more = h(
    'button.secondary',
    { type: 'button', id: name ? null : 'load-more', 'aria-label': name ? `Load more ${name}` : null, hidden: true },
    'Load more',
  );
  const wrapper = h(
    'div',
    {},
    h(
      'table.grid',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          headers.map((header) => h('th', {}, header)),
        ),
      ),
      body,
    ),
    h('p.empty.muted', { hidden: true }, empty),
    more,
  );
  /** @type {string | null} */
  let next = firstUrl;

  async function load() {
    more.disabled = true;
    const response = await request('GET', /** @type {string} */ (next), { signal: view.signal }); // "Load more" shows only with a next page
    const items = unwrap(await response.json());
    for (const item of items) body.append(rowOf(item));
    next = nextLink(response);
    more.hidden = !next;
    more.disabled = false;
    /** @type {HTMLElement} */ (wrapper.querySelector('.empty')).hidden = body.children.length > 0;
    onPage(next !== null);
  }
  /** @param {T} item */
  function rowOf(item) {
    return h(
      'tr',
      rowProps(item),
      row(item).map((content, i) => cell(headers[i], content)),
    );
  }
  more.addEventListener('click', () => load().catch((error) => replace(wrapper, h('p.error', {}, error.message))));
  return { element: wrapper, load, rowOf };
}
