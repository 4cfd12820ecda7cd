// Every element is built with createElement and every text goes through textContent: untrusted
// text (tasks, model output, tool arguments, blocker reasons) can never become markup.

/** @import { Child, ElementOf } from '../types.js' */

/**
 * h('tag.class', {attr: value, onclick: fn}, ...children): an element. Children are nodes or
 * strings (set as text); null/false children are skipped. Attributes never include `style` or
 * inline handlers (the Content-Security-Policy forbids both).
 * @template {string} S
 * @param {S} spec
 * @param {Record<string, unknown> | null} [props]
 * @param {...Child} children
 * @returns {ElementOf<S>}
 */
export function h(spec, props = {}, ...children) {
  const [tag, ...classes] = spec.split('.');
  const el = /** @type {ElementOf<S>} */ (document.createElement(tag || 'div'));
  if (classes.length) el.className = classes.join(' ');
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key in el && typeof value !== 'string') /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (el))[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {readonly Child[]} children
 */
function append(el, children) {
  // Typed as unknown: flattening the recursive Child type is too deep for the compiler.
  for (const child of /** @type {readonly unknown[]} */ (children).flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replaces an element's children.
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * A body cell labelled by its column's header: on a phone a grid table's rows stack, and each
 * cell shows its label (studio.css, "Phone screens").
 * @param {Child} header
 * @param {...Child} children
 */
export function cell(header, ...children) {
  return h('td', { 'data-label': typeof header === 'string' ? header : null }, ...children);
}

/**
 * A table from a header row and rows of cells (strings or nodes).
 * @param {readonly Child[]} headers
 * @param {readonly (readonly Child[])[]} rows
 */
export function table(headers, rows, className = 'grid') {
  return h(
    `table.${className}`,
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
    h(
      'tbody',
      {},
      rows.map((cells) =>
        h(
          'tr',
          {},
          cells.map((content, i) => cell(headers[i], content)),
        ),
      ),
    ),
  );
}

/**
 * A definition list from [label, value] pairs; null values are skipped.
 * @param {readonly (readonly [string, Child])[]} pairs
 */
export function facts(pairs) {
  return h(
    'dl.facts',
    {},
    pairs.filter(([, value]) => value !== null && value !== undefined).map(([label, value]) => [h('dt', {}, label), h('dd', {}, value)]),
  );
}

/**
 * A status word with a colour class per value (`status-running`, `status-NO_SHIP`, ...).
 * @param {string | number | boolean} value
 */
export function pill(value) {
  return h(`span.pill.status-${String(value).replace(/[^A-Za-z0-9_-]/g, '')}`, {}, String(value));
}

/**
 * Preformatted text: model output, tool output, JSON arguments.
 * @param {unknown} value
 */
export function pre(value) {
  return h('pre', {}, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

/**
 * The tab's title, "<what the page shows> · shipgate" (e.g. "NO_SHIP acme/api@02402c1 · shipgate").
 * A page calls it once it knows what it shows; otherwise main.js titles it after its h1.
 * @param {...(string | null | undefined)} parts
 */
export function setTitle(...parts) {
  document.title = [...parts.filter(Boolean), 'shipgate'].join(' · ');
}

/**
 * Tells a screen reader what changed (a live run's new status) through index.html's polite live region.
 * @param {string} text
 */
export function announce(text) {
  const region = document.getElementById('announcer');
  if (region) region.textContent = text;
}

/** @param {string | null | undefined} iso */
export function when(iso) {
  return iso ? new Date(iso).toLocaleString() : '—';
}

/** @param {number} value */
export function cents(value) {
  return `$${(value / 100).toFixed(2)}`;
}

/**
 * @param {string} href
 * @param {Child} text
 */
export function link(href, text) {
  return h('a', { href }, text);
}

/**
 * A form field with its label; `control` is an input, select or textarea.
 * @param {string} label
 * @param {Child} control
 * @param {string} [hint]
 */
export function field(label, control, hint) {
  return h('label.field', {}, h('span.label', {}, label), control, hint ? h('span.hint', {}, hint) : null);
}

/**
 * A <select> of values (or [value, text] pairs) with `selected` chosen.
 * @param {string} name
 * @param {(string | [string, string])[]} options
 * @param {string} selected
 */
export function select(name, options, selected) {
  return h(
    'select',
    { name },
    options.map((option) => {
      const [value, text] = Array.isArray(option) ? option : [option, option];
      return h('option', { value, selected: value === selected }, text);
    }),
  );
}
