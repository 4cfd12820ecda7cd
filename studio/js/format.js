// Human words for what the API says in machine units: durations ("7 days"), times relative to
// now with the exact time on hover, and people by name with their e-mail on hover.

import { h } from './dom.js';

const UNITS = /** @type {const} */ ([
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
]);

/** @param {number} n @param {string} unit */
const count = (n, unit) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * A number of seconds in words, at most two units: 604800 → "7 days", 5400 → "1 hour 30 minutes",
 * 45 → "45 seconds". Days are not folded into weeks or months: a gate's "7 days" reads as set.
 * @param {number} seconds
 */
export function duration(seconds) {
  let rest = Math.max(0, Math.round(seconds));
  if (rest === 0) return '0 seconds';
  const parts = [];
  for (const [unit, size] of UNITS) {
    if (rest < size) continue;
    parts.push(count(Math.floor(rest / size), unit));
    rest %= size;
    if (parts.length === 2) break;
    if (rest === 0) break;
  }
  return parts.join(' ');
}

/**
 * The API's texts that state a duration as "<n> s" (a gate's ages, in requirements and blockers),
 * with each such duration in words: "within the last 604800 s" → "within the last 7 days".
 * @param {string} text
 */
export function durationsInText(text) {
  return text.replace(/\b(\d+) s\b/g, (_, n) => duration(Number(n)));
}

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/** Within this share of a whole unit counts as that unit: an expiry set "1 day" ahead reads "in 1 day", not "in 23 hours", a moment later. */
const UNIT_SLACK = 0.01;

/**
 * How long ago (or how far ahead) a time is, in the largest whole unit: "3 minutes ago",
 * "in 2 hours", "just now" within ten seconds.
 * @param {string | number | Date} time
 * @param {number} [now]
 */
export function relativeTime(time, now = Date.now()) {
  const seconds = Math.round((new Date(time).getTime() - now) / 1000);
  if (Math.abs(seconds) < 10) return 'just now';
  for (const [unit, size] of UNITS) {
    const units = Math.trunc((seconds + Math.sign(seconds) * size * UNIT_SLACK) / size);
    if (units !== 0) return RELATIVE.format(units, unit);
  }
  return 'just now';
}

/**
 * The exact time, as a person reads it, with the UTC instant the API stored: shown on hover.
 * @param {string | number | Date} time
 */
export function exactTime(time) {
  const date = new Date(time);
  return `${date.toLocaleString()} (${date.toISOString().slice(0, 19)}Z)`;
}

/**
 * A <time> saying how long ago, the exact time in its title (on hover) and datetime.
 * @param {string | null | undefined} iso
 */
export function ago(iso) {
  if (!iso) return '—';
  return h('time', { datetime: iso, title: exactTime(iso) }, relativeTime(iso));
}

/**
 * A person by name with their e-mail on hover; without a name (an older answer, a deleted
 * account), the first eight characters of their id, the full id on hover.
 * @param {{ id: string, name?: string | null, email?: string | null }} who
 */
export function person({ id, name, email }) {
  if (!name) return h('span.person', { title: `user ${id}` }, h('code', {}, id.slice(0, 8)));
  return h('span.person', { title: email ? `${name} <${email}>` : name, dataset: { userId: id } }, name);
}
