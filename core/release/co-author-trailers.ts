/** `Co-authored-by: Name <e-mail>`, any case (Claude Code writes `Co-Authored-By`); the e-mail may be missing. */
const TRAILER = /^co-authored-by:[ \t]*(.*?)[ \t]*(?:<([^<>\s]*)>)?[ \t]*$/i;

/**
 * The `Co-authored-by:` trailers of a commit message. Git reads trailers from the last paragraph;
 * tools and people also put them elsewhere, and a missed agent is worse than a misread line, so
 * every such line counts.
 */
export function coAuthorTrailers(message: string): { name: string; email: string | null }[] {
  const found: { name: string; email: string | null }[] = [];
  for (const line of message.split(/\r?\n/)) {
    const match = TRAILER.exec(line.trim());
    if (!match) continue;
    const name = match[1].trim();
    const email = match[2] ? match[2].trim() : null;
    if (name || email) found.push({ name, email: email || null });
  }
  return found;
}

/** `<id>+<login>@users.noreply.github.com` or `<login>@users.noreply.github.com`: GitHub's private e-mail names its account. */
export function loginOfNoreplyEmail(email: string | null): string | null {
  const match = /^(?:\d+\+)?([A-Za-z0-9-]+(?:\[bot\])?)@users\.noreply\.github\.com$/i.exec(email ?? '');
  return match ? match[1] : null;
}
