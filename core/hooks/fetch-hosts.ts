const str = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** The host of a URL, without a trailing dot (`example.com.` is `example.com` in DNS), or the text itself when it is none. */
export function hostOf(url: string): string {
  let host = url;
  try {
    host = new URL(url).hostname;
  } catch {
    // Not a URL: its text is what a host rule sees.
  }
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

const URL_START = /^https?:\/\//i;
/** A URL with an authority, any scheme (`https://…`, `ssh://…`, `git://…`): what shell lines name hosts and downloads by. */
export const URL_WITH_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/[^/]/i;

/**
 * The hosts a fetch reaches (docs/agent-hooks.md, "Tools and capabilities"): its `url`'s and
 * those of every URL in Gemini CLI's `prompt` (which it fetches, `HTTPS://` as well), or why its
 * input names none it could fetch (a `url` that is no string).
 */
export function fetchHosts(input: Record<string, unknown>): { hosts: string[]; malformed?: string } {
  if ('url' in input && typeof input.url !== 'string') return { hosts: [], malformed: 'the url must be a string' };
  const url = str(input.url);
  const prompt = str(input.prompt) ?? '';
  const inPrompt = prompt.split(/\s+/).filter((w) => URL_START.test(w));
  return { hosts: [...new Set([...(url ? [url] : []), ...inPrompt].map(hostOf))] };
}
