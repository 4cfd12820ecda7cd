import { session } from './session.js';

/** An API answer other than 2xx: status and the server's `detail`. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(describeDetail(detail) || `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
  }
}

/** The server's detail as one readable line: a string, a policy denial, or 422 issues. */
export function describeDetail(detail) {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map((issue) => `${(issue.loc ?? []).join('.')}: ${issue.msg}`).join('; ');
  if (detail && typeof detail === 'object') {
    const denied = (detail.denied ?? []).map((d) => `${d.permission} (${d.reason})`).join(', ');
    return denied ? `${detail.message} — denied: ${denied}` : String(detail.message ?? '');
  }
  return '';
}

let onUnauthorized = () => {};

/** What to do on any 401: the studio returns to sign-in with the server's message. */
export function whenUnauthorized(handler) {
  onUnauthorized = handler;
}

/** The `rel="next"` URL of a Link header, or null. */
export function nextLink(response) {
  const match = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('Link') ?? '');
  return match ? match[1] : null;
}

/**
 * Calls the API on this origin with the session key. Answers the Response (body unread) for
 * 2xx; throws ApiError otherwise (after sending the user to sign-in on a 401).
 */
export async function request(method, path, { body, signal, anonymous = false } = {}) {
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

/** GET returning parsed JSON. */
export async function getJson(path, options) {
  return (await request('GET', path, options)).json();
}

/** A method with a JSON body, returning parsed JSON (or null for 204). */
export async function send(method, path, body, options = {}) {
  const response = await request(method, path, { ...options, body });
  return response.status === 204 ? null : response.json();
}

/** Downloads an authenticated attachment (audit packages, workflow exports) as a file. */
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
