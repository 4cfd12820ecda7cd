import { deepFreeze, isDeeplyFrozen } from '../deep-freeze.js';

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/** What a remembered copy holds in place of an object that is not plain data: nothing is the same as it. */
const UNCOMPARABLE: unknown = Object.freeze(new (class Uncomparable {})());

/** What a comparison met besides its answer: frozen parts equal to remembered ones that are other objects. */
export interface JsonComparison {
  /**
   * Set when a deeply frozen part of the value equals a remembered part without being it: its source was read again
   * (the decision's cache refilled), so comparing with a copy of this value instead would stop at that part next time.
   */
  renewed: boolean;
}

/**
 * Whether `value` is the same JSON value as `remembered`, a value `rememberable` returned: what is computed from one
 * (its JSON text, its canonical digest) is then what the other gives. Conservative: `false` may be answered for equal
 * values (keys left undefined, objects other than plain data such as a Date), never `true` for different ones. Parts
 * shared with `remembered` count as equal without a walk: `rememberable` froze them, so they hold what they held when
 * remembered. What a poll of an unchanged commit rebuilds is small beside what it shares (the rules judged once per
 * pull request's facts, the gate's fields), so this costs a small part of serialising the value again.
 */
export function sameJson(value: unknown, remembered: unknown, met?: JsonComparison): boolean {
  if (value === remembered) return true;
  if (typeof value !== 'object' || typeof remembered !== 'object' || value === null || remembered === null) return false;
  if (met && !met.renewed && isDeeplyFrozen(value) && isDeeplyFrozen(remembered)) met.renewed = true;
  if (Array.isArray(value)) {
    if (!Array.isArray(remembered) || value.length !== remembered.length) return false;
    for (let i = 0; i < value.length; i++) if (!sameJson(value[i], remembered[i], met)) return false;
    return true;
  }
  if (Array.isArray(remembered) || !isPlainObject(value) || !isPlainObject(remembered)) return false;
  const a = value as Record<string, unknown>;
  const b = remembered as Record<string, unknown>;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!Object.hasOwn(b, key) || !sameJson(a[key], b[key], met)) return false;
  }
  return true;
}

/**
 * A copy of `value` that no caller can change, to compare later values with (`sameJson`): deeply frozen parts are
 * kept as they are (the same identity is then the same content, cheaply), everything else is copied and frozen.
 */
export function rememberable<T>(value: T): T {
  const copy = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null || isDeeplyFrozen(v)) return v;
    if (Array.isArray(v)) return v.map(copy);
    if (!isPlainObject(v)) return UNCOMPARABLE;
    const out: Record<string, unknown> = {};
    for (const [k, inner] of Object.entries(v)) out[k] = copy(inner);
    return out;
  };
  return deepFreeze(copy(value) as T);
}
