import type { Tool } from './tool.js';

/**
 * The registry by the names a call may use: each tool's name and its aliases. Two tools
 * answering to one name would make a call ambiguous, so that is refused at start.
 */
export function toolsByName(tools: readonly Tool[]): ReadonlyMap<string, Tool> {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    for (const name of [tool.name, ...(tool.aliases ?? [])]) {
      const other = byName.get(name);
      if (other) throw new Error(`Tools ${other.name} and ${tool.name} both answer to "${name}".`);
      byName.set(name, tool);
    }
  }
  return byName;
}
