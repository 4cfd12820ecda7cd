/** `path` without the slashes that end it (a loop: `/\/+$/` retried from every slash of a long run). */
export function trimSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}
