import { h, replace } from '../dom.js';

/** @import { View } from '../../types.js' */

/** @param {View} view */
export function notFoundPage(view) {
  replace(
    view.root,
    h('h1', {}, 'Not found'),
    h('p', {}, 'No studio page has this address. ', h('a', { href: '#/executions' }, 'Executions')),
  );
}
