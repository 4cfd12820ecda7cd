/** `Co-authored-by: Name <e-mail>`, any case (Claude Code writes `Co-Authored-By`): what follows the colon. */
const TRAILER = /^co-authored-by:(.*)$/i;
/**
 * The `<e-mail>` ending a trailer, which may be missing. Taken apart in two linear steps: one
 * regex with white space on both sides of a lazy name backtracked polynomially on a line of
 * blanks (docs/operations.md, "Regular expressions").
 */
const EMAIL_AT_END = /<([^<>\s]*)>$/;

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
    const rest = match[1];
    const address = EMAIL_AT_END.exec(rest);
    const name = (address ? rest.slice(0, address.index) : rest).trim();
    const email = address ? address[1] : null;
    if (name || email) found.push({ name, email: email || null });
  }
  return found;
}

/** `<id>+<login>@users.noreply.github.com` or `<login>@users.noreply.github.com`: GitHub's private e-mail names its account. */
export function loginOfNoreplyEmail(email: string | null): string | null {
  const match = /^(?:\d+\+)?([A-Za-z0-9-]+(?:\[bot\])?)@users\.noreply\.github\.com$/i.exec(email ?? '');
  return match ? match[1] : null;
}
