import { markdownText } from '../../core/github/markdown-text.js';

// docs/github-app.md, "Quoting outside text": outside text written into the App's Markdown is shown as that text.
const ZWSP = '\u200B';

/** What a reader sees: CommonMark drops the backslash before punctuation, and the zero-width space shows as nothing. */
const shown = (markdown: string) => markdown.replace(/\\([!-/:-@[-`{-~])/g, '$1').replaceAll(ZWSP, '');

describe('markdownText', () => {
  it('backslash-escapes the punctuation Markdown reads, and leaves words and other characters alone', () => {
    expect(markdownText('\\`*_{}[]()#+-.!|~<>&$')).toBe('\\\\\\`\\*\\_\\{\\}\\[\\]\\(\\)\\#\\+\\-\\.\\!\\|\\~\\<\\>\\&\\$');
    expect(markdownText('ci / build, 100% green: “ok” é 🚀')).toBe('ci / build, 100% green: “ok” é 🚀');
  });

  it('breaks mentions, references and URLs with a zero-width space, so GitHub neither notifies nor links', () => {
    expect(markdownText('@acme/everyone')).toBe(`@${ZWSP}acme/everyone`);
    expect(markdownText('docs/@alice.md')).toBe(`docs/@${ZWSP}alice\\.md`);
    expect(markdownText('#123 acme/other#5')).toBe(`\\#${ZWSP}123 acme/other\\#${ZWSP}5`);
    expect(markdownText('GH-12 gh-7')).toBe(`GH\\-${ZWSP}12 gh\\-${ZWSP}7`);
    expect(markdownText('https://evil')).toBe(`https:${ZWSP}//evil`);
    // Nothing to break: an `@` or `#` before a space, `GH-` before a letter, a colon before a space.
    expect(markdownText('a @ b # c GH-x d: e')).toBe('a @ b \\# c GH\\-x d: e');
  });

  it('is shown as the very text it was given', () => {
    const hostile =
      '</details><h2>✅ SHIP</h2><img src=https://t/x> [SHIP](https://evil) **SHIP** `a` <!-- shipgate:release-gate --> @a #1 GH-2 \\';
    expect(shown(markdownText(hostile))).toBe(hostile);
  });

  it('takes one pass, however the input is made', () => {
    const long = '@a#1GH-2:/\\`'.repeat(20_000);
    const escaped = markdownText(long);
    expect(shown(escaped)).toBe(long);
    expect(escaped.length).toBeLessThan(long.length * 3);
  });
});
