// The key lives in sessionStorage only: it dies with the tab and is never written to
// localStorage or a cookie. The user (name, role) is read from /auth/me and kept in memory.

/** @import { User } from '../types.js' */

const KEY = 'shipgate.key';
const RETURN_TO = 'shipgate.returnTo';

/** @type {User | null} */
let me = null;

export const session = {
  key: () => sessionStorage.getItem(KEY),
  /** @param {string} key */
  setKey: (key) => sessionStorage.setItem(KEY, key),
  me: () => me,
  /** @param {User | null} user */
  setMe: (user) => (me = user),
  clear() {
    sessionStorage.removeItem(KEY);
    me = null;
  },
  /**
   * Where to go after signing in (a deep link opened while signed out).
   * @param {string} hash
   */
  rememberRoute(hash) {
    if (hash && hash !== '#/' && !hash.startsWith('#/sign-in')) sessionStorage.setItem(RETURN_TO, hash);
  },
  takeRoute() {
    const hash = sessionStorage.getItem(RETURN_TO);
    sessionStorage.removeItem(RETURN_TO);
    return hash;
  },
};

/**
 * Role checks for hiding controls; the server decides for real.
 * @param {...User['role']} roles
 */
export function hasRole(...roles) {
  return Boolean(me && roles.includes(me.role));
}
