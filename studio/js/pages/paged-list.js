import { nextLink, request } from '../api.js';
import { cell, h, replace } from '../dom.js';

/** @import { ListColumns, View } from '../../types.js' */

/**
 * A list that follows the API's `Link: rel="next"` header: the first page now, the next one when
 * "Load more" is pressed (the button disappears when there is none).
 * @template T
 * @param {View} view
 * @param {string} firstUrl
 * @param {ListColumns<T>} columns
 */
export function pagedList(view, firstUrl, { headers, row, empty, unwrap = (json) => /** @type {T[]} */ (json) }) {
  const body = h('tbody');
  const more = h('button.secondary', { type: 'button', id: 'load-more', hidden: true }, 'Load more');
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
    for (const item of items)
      body.append(
        h(
          'tr',
          {},
          row(item).map((content, i) => cell(headers[i], content)),
        ),
      );
    next = nextLink(response);
    more.hidden = !next;
    more.disabled = false;
    /** @type {HTMLElement} */ (wrapper.querySelector('.empty')).hidden = body.children.length > 0;
  }
  more.addEventListener('click', () => load().catch((error) => replace(wrapper, h('p.error', {}, error.message))));
  return { element: wrapper, load };
}
