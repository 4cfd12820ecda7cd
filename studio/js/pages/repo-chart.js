import { h, table } from '../dom.js';

/** @import { Child } from '../../types.js' */

/**
 * @typedef {{ day: string, ship: number, no_ship: number }} DayCount
 * @typedef {{ code: string, count: number }} BlockerCount
 */

const SVG = 'http://www.w3.org/2000/svg';
const SHIP_FILL = '#1a7f37';
const NO_SHIP_FILL = '#cf222e';
const BLOCKER_FILL = '#656d76';

/**
 * An SVG element (h() builds HTML ones). Attributes only: the CSP forbids inline styles.
 * @param {string} tag
 * @param {Record<string, string | number>} attributes
 * @param {...(SVGElement | string)} children
 */
function svg(tag, attributes, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  for (const child of children) el.append(child);
  return el;
}

/** @param {number} n @param {string} one */
const plural = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The words a screen reader reads for the decisions chart; the same figures as the table.
 * @param {DayCount[]} days
 */
export function decisionsSummary(days) {
  const ship = days.reduce((sum, d) => sum + d.ship, 0);
  const noShip = days.reduce((sum, d) => sum + d.no_ship, 0);
  const busy = days.filter((d) => d.ship + d.no_ship > 0).map((d) => `${d.day}: ${d.ship} SHIP, ${d.no_ship} NO_SHIP`);
  const range = days.length ? ` from ${days[0].day} to ${days[days.length - 1].day}` : '';
  const total = `Decisions per day (UTC)${range}: ${ship} SHIP and ${noShip} NO_SHIP in all.`;
  return busy.length ? `${total} ${busy.join('; ')}.` : `${total} No decisions in this window.`;
}

/**
 * SHIP and NO_SHIP per UTC day as stacked bars: inline SVG with role="img" and a label that
 * carries the figures, a visible caption, and the figures as a table in a disclosure.
 * @param {DayCount[]} days
 */
export function decisionsChart(days) {
  const width = 640;
  const height = 180;
  const top = 10;
  const bottom = 24;
  const max = Math.max(1, ...days.map((d) => d.ship + d.no_ship));
  const slot = width / Math.max(1, days.length);
  const bar = Math.max(2, slot * 0.7);
  const scale = (/** @type {number} */ n) => (n / max) * (height - top - bottom);
  /** @type {SVGElement[]} */
  const marks = [];
  days.forEach((d, i) => {
    const x = i * slot + (slot - bar) / 2;
    const shipHeight = scale(d.ship);
    const noShipHeight = scale(d.no_ship);
    const base = height - bottom;
    if (d.ship) marks.push(svg('rect', { x, y: base - shipHeight, width: bar, height: shipHeight, fill: SHIP_FILL }));
    if (d.no_ship)
      marks.push(svg('rect', { x, y: base - shipHeight - noShipHeight, width: bar, height: noShipHeight, fill: NO_SHIP_FILL }));
    // A date under the first, the last and every seventh bar keeps the axis readable on a phone.
    const last = days.length - 1;
    if (i === 0 || i === last || (i % 7 === 0 && last - i >= 4)) {
      const anchor = i === 0 ? 'start' : i === last ? 'end' : 'middle';
      const at = i === 0 ? x : i === last ? x + bar : x + bar / 2;
      marks.push(svg('text', { x: at, y: height - 6, 'text-anchor': anchor, 'font-size': 11, fill: '#1f2328' }, d.day.slice(5)));
    }
  });
  marks.push(svg('line', { x1: 0, x2: width, y1: height - bottom, y2: height - bottom, stroke: '#d0d7de' }));
  const summary = decisionsSummary(days);
  const chart = svg(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, width: '100%', role: 'img', 'aria-label': summary, id: 'decisions-chart-svg' },
    ...marks,
  );
  return h(
    'figure',
    { id: 'decisions-chart' },
    chart,
    h('figcaption', {}, legend(SHIP_FILL, 'SHIP'), ' ', legend(NO_SHIP_FILL, 'NO_SHIP'), h('p', { id: 'decisions-summary' }, summary)),
    h(
      'details',
      {},
      h('summary', {}, 'Decisions per day as a table'),
      h(
        'div',
        { id: 'decisions-table' },
        table(
          ['Day (UTC)', 'SHIP', 'NO_SHIP'],
          days.map((d) => [d.day, String(d.ship), String(d.no_ship)]),
        ),
      ),
    ),
  );
}

/**
 * @param {string} fill
 * @param {string} text
 * @returns {Child}
 */
function legend(fill, text) {
  return h(
    'span.legend',
    {},
    svg('svg', { viewBox: '0 0 10 10', width: 10, height: 10, 'aria-hidden': 'true' }, svg('rect', { width: 10, height: 10, fill })),
    ` ${text}`,
  );
}

/**
 * The most frequent blocker codes of the window as horizontal bars, with the same text alternative.
 * @param {BlockerCount[]} blockers
 */
export function blockersChart(blockers) {
  if (blockers.length === 0)
    return h('p.muted', { id: 'top-blockers' }, 'No blockers in this window: every decision was SHIP, or none was made.');
  const row = 24;
  const width = 640;
  const label = 230;
  const max = Math.max(1, ...blockers.map((b) => b.count));
  const height = row * blockers.length;
  const summary = `Most frequent blockers: ${blockers.map((b) => `${b.code} ${plural(b.count, 'time')}`).join(', ')}.`;
  const marks = blockers.flatMap((b, i) => [
    svg('text', { x: 0, y: i * row + 16, 'font-size': 12, fill: '#1f2328' }, b.code),
    svg('rect', {
      x: label,
      y: i * row + 4,
      width: Math.max(2, (b.count / max) * (width - label - 40)),
      height: row - 8,
      fill: BLOCKER_FILL,
    }),
    svg('text', { x: width - 30, y: i * row + 16, 'font-size': 12, fill: '#1f2328' }, String(b.count)),
  ]);
  return h(
    'figure',
    { id: 'top-blockers' },
    svg('svg', { viewBox: `0 0 ${width} ${height}`, width: '100%', role: 'img', 'aria-label': summary }, ...marks),
    h('figcaption', {}, summary),
  );
}
