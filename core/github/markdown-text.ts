/**
 * The ASCII punctuation GitHub's Markdown (CommonMark and GFM) reads as syntax within a line: escapes, code spans,
 * emphasis, strikethrough, links and images, HTML and entities, headings, list and quote markers, table cells, math
 * (`$`). Each is written after a backslash, which CommonMark turns back into the character itself.
 */
const MARKDOWN_PUNCTUATION = new Set('\\`*_{}[]()#+-.!|~<>&$');

/** Written between a character and what follows it where GitHub would link the two (see markdownText). */
const ZERO_WIDTH_SPACE = '\u200B';

const isWordCharacter = (c: string | undefined) => c !== undefined && /^\w$/.test(c);
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/** Whether GitHub would link across the gap after `text[i]`: a mention, a reference, a URL (see markdownText). */
function linksOnward(text: string, i: number): boolean {
  const c = text[i];
  const next = text[i + 1];
  if (c === '@' || c === '#') return isWordCharacter(next);
  if (c === ':') return next === '/';
  return c === '-' && isDigit(next) && text.slice(Math.max(0, i - 2), i).toLowerCase() === 'gh';
}

/**
 * `text`, written by someone outside the gate (a check run's name, a file path, a rule's message, a login, an override's
 * reason), as Markdown that GitHub shows as that very text (docs/github-app.md, "Quoting outside text"). Why each step:
 *
 * - Markdown punctuation is backslash-escaped, so `<h2>`, `</details>`, `<img …>`, `[SHIP](…)`, `**SHIP**`, a backtick
 *   that would open or close a code span, a `|` that would split a table cell, an entity, or a copy of the comment's
 *   hidden marker are shown, not read (CommonMark's backslash escapes cover all ASCII punctuation).
 * - A backslash cannot stop GitHub's mentions and references: GitHub finds them in the text after Markdown is read, so
 *   `\@acme/everyone` still notifies the team. A zero-width space (U+200B) after `@` or `#` followed by a word
 *   character, and after `GH-` followed by a digit, leaves the text looking the same and matches no mention (the App's
 *   comment would notify whoever it names) and no reference (`#123`, `acme/other#5`, `GH-12` would each put a "mentioned
 *   this" event on that issue). The same space after `:` before `/` keeps a URL (an issue's URL is a reference too) from
 *   being linked. The character itself, not the `&#8203;` entity: it takes 3 bytes of GitHub's limits, not 7, and
 *   means the same wherever the text is not read as Markdown.
 *
 * One line stays one line (callers flatten line breaks first: oneLine), and the text is longer than it was: clip after
 * this, not before, so GitHub's limits hold. One pass over the text, each character looked at once with its neighbours.
 */
export function markdownText(text: string): string {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    out.push(MARKDOWN_PUNCTUATION.has(c) ? `\\${c}` : c);
    if (linksOnward(text, i)) out.push(ZERO_WIDTH_SPACE);
  }
  return out.join('');
}
