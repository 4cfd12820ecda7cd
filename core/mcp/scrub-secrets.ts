/** What replaces an upstream's credential wherever the upstream echoes it back. */
export const UPSTREAM_CREDENTIAL_REDACTED = '[REDACTED:upstream_credential]';

/** A header value this short (`2`, `json`) is no secret, and scrubbing it would mangle ordinary text. */
const MIN_SECRET_LENGTH = 8;

/**
 * The secrets an upstream's stored headers carry (docs/mcp-gateway.md, "Upstream MCP servers"): each value of
 * MIN_SECRET_LENGTH characters or more, and the credential after an authorization scheme (`Bearer <token>`), which an
 * upstream may echo alone.
 */
export function headerSecrets(headers: Record<string, string>): string[] {
  const secrets = Object.values(headers).flatMap((value) => [value.trim(), value.trim().replace(/^[A-Za-z][\w-]*\s+/, '')]);
  return [...new Set(secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
}

/** `text` with each secret replaced by UPSTREAM_CREDENTIAL_REDACTED (the longest first, so a scheme's token goes with it). */
export function scrubText(text: string, secrets: Iterable<string>): string {
  let scrubbed = text;
  for (const secret of secrets) if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(UPSTREAM_CREDENTIAL_REDACTED);
  return scrubbed;
}

/** `value` (any JSON) with scrubText applied to every string, keys included; the same object when nothing was found. */
export function scrubJson<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0 || value === undefined) return value;
  const text = JSON.stringify(value);
  const scrubbed = scrubText(
    text,
    secrets.map((secret) => JSON.stringify(secret).slice(1, -1)),
  );
  return scrubbed === text ? value : (JSON.parse(scrubbed) as T);
}
