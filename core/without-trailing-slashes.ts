/**
 * `text` without the slashes it ends in (`https://a.example//` -> `https://a.example`), found by
 * walking back from the end: `/\/+$/` is quadratic on a long run of slashes followed by anything
 * else, as it retries the run from every slash in it (docs/operations.md, "Regular expressions").
 */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '/') end -= 1;
  return text.slice(0, end);
}
