import fs from 'node:fs';
import path from 'node:path';

/** A relative link written in a Markdown file: `target` is the path part (empty for `#anchor`), `anchor` without `#`. */
export interface MarkdownLink {
  text: string;
  target: string;
  anchor?: string;
}

/** Fenced code blocks (``` or ~~~) blanked out: what is inside is shown, not linked or titled. */
function withoutFencedCode(markdown: string): string {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  return lines
    .map((line) => {
      const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fence === undefined && opening) {
        fence = opening[1];
        return '';
      }
      if (fence !== undefined) {
        if (new RegExp(`^\\s{0,3}${fence[0]}{${fence.length},}\\s*$`).test(line)) fence = undefined;
        return '';
      }
      return line;
    })
    .join('\n');
}

const withoutCodeSpans = (text: string) => text.replace(/(`+)[^`]*?\1/g, '');

/** Every link to another place in the repository (absolute URLs, `mailto:` and the like are not checked here). */
export function relativeLinksOf(markdown: string): MarkdownLink[] {
  const text = withoutCodeSpans(withoutFencedCode(markdown));
  const inline = [...text.matchAll(/\[([^\][]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => ({ text: m[1], href: m[2] }));
  const definitions = [...text.matchAll(/^\s{0,3}\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => ({
    text: m[1],
    href: m[2],
  }));
  return [...inline, ...definitions]
    .filter(({ href }) => href !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('//'))
    .map(({ text: linkText, href }) => {
      const hash = href.indexOf('#');
      const target = decodeURI(hash === -1 ? href : href.slice(0, hash));
      return hash === -1 ? { text: linkText, target } : { text: linkText, target, anchor: decodeURIComponent(href.slice(hash + 1)) };
    });
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image shows its text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .replace(/`/g, '');
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors GitHub gives a file's headings (ATX `#` headings; a repeated slug gets `-1`, `-2`, ...). */
export function headingAnchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFencedCode(markdown).matchAll(/^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/gm)) {
    const slug = githubSlug(match[1]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** What is wrong with each relative link of `file`, as `file: [text](href): reason`; empty when all resolve. */
export function brokenLinksIn(file: string): string[] {
  const markdown = fs.readFileSync(file, 'utf8');
  return relativeLinksOf(markdown).flatMap(({ text, target, anchor }) => {
    const written = `${file}: [${text}](${target}${anchor === undefined ? '' : `#${anchor}`})`;
    const resolved = target === '' ? file : target.startsWith('/') ? path.join('.', target) : path.join(path.dirname(file), target);
    if (!fs.existsSync(resolved)) return [`${written}: no such file`];
    if (anchor === undefined || !resolved.endsWith('.md') || fs.statSync(resolved).isDirectory()) return [];
    return headingAnchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor) ? [] : [`${written}: no heading with that anchor`];
  });
}
