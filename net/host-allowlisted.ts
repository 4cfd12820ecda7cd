/** Whether the URL's host (with or without its port) is on the http_get allowlist. */
export function hostAllowlisted(url: URL, allowlist: readonly string[]): boolean {
  const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return allowlist.some((entry) => {
    const allowed = entry.trim().toLowerCase();
    return allowed === hostname || allowed === url.host.toLowerCase() || allowed === `[${hostname}]`;
  });
}
