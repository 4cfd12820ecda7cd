import { session } from './session.js';

/** @import { ErrorDetail, PolicyDenial } from '../types.js' */

/** An API answer other than 2xx: status and the server's `detail`. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {ErrorDetail | undefined} detail
   */
  constructor(status, detail) {
    super(describeDetail(detail) || `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
  }
}

/**
 * The server's detail as one readable line: a string, a policy denial, or 422 issues.
 * @param {ErrorDetail | undefined} detail
 */
export function describeDetail(detail) {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map((issue) => `${(issue.loc ?? []).join('.')}: ${issue.msg}`).join('; ');
  if (detail && typeof detail === 'object') {
    const denial = /** @type {Partial<PolicyDenial>} */ (detail);
    const denied = (denial.denied ?? []).map((d) => `${d.permission} (${d.reason})`).join(', ');
    return denied ? `${denial.message} — denied: ${denied}` : String(denial.message ?? '');
  }
  return '';
}

/** @type {(message: string) => void} */
let onUnauthorized = () => {};

/**
 * What to do on any 401: the studio returns to sign-in with the server's message.
 * @param {(message: string) => void} handler
 */
export function whenUnauthorized(handler) {
  onUnauthorized = handler;
}

/**
 * The `rel="next"` URL of a Link header, or null.
 * @param {Response} response
 */
export function nextLink(response) {
  const match = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('Link') ?? '');
  return match ? match[1] : null;
}

/**
 * Calls the API on this origin with the session key. Answers the Response (body unread) for
 * 2xx; throws ApiError otherwise (after sending the user to sign-in on a 401).
 * @param {string} method
 * @param {string} path
 * @param {{ body?: unknown, signal?: AbortSignal, anonymous?: boolean }} [options]
 * @returns {Promise<Response>}
 */
export async function request(method, path, { body, signal, anonymous = false } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  const key = session.key();
  if (key && !anonymous) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const url = path.startsWith('/') ? path : `/api/v1/${path}`;
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  if (response.ok) return response;
  const detail = await response
    .json()
    .then((json) => json.detail)
    .catch(() => response.statusText);
  const error = new ApiError(response.status, detail);
  if (response.status === 401 && !anonymous) onUnauthorized(error.message);
  throw error;
}

/**
 * GET returning parsed JSON, typed by the caller's declaration (the response types in
 * studio/types.d.ts; undeclared, it is `unknown` and any use fails the typecheck).
 * @template [T=unknown]
 * @param {string} path
 * @param {{ signal?: AbortSignal }} [options]
 * @returns {Promise<T>}
 */
export async function getJson(path, options) {
  return (await request('GET', path, options)).json();
}

/**
 * A method with a JSON body, returning parsed JSON (or null for 204), typed like getJson's.
 * @template [T=unknown]
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {{ signal?: AbortSignal, anonymous?: boolean }} [options]
 * @returns {Promise<T>}
 */
export async function send(method, path, body, options = {}) {
  const response = await request(method, path, { ...options, body });
  // T is null for a route that answers 204.
  return response.status === 204 ? /** @type {T} */ (null) : response.json();
}

/**
 * Downloads an authenticated attachment (audit packages, workflow exports) as a file.
 * @param {string} path
 * @param {string} fallbackName
 */
export async function download(path, fallbackName) {
  const response = await request('GET', path);
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
