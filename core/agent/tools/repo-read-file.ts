import { z } from 'zod';
import { boundRepository } from './bound-repository.js';
import { defineTool } from './tool.js';

/** A relative path inside the repository: no absolute paths, `..`, backslashes or control characters. */
function safeRepoPath(path: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (path.startsWith('/') || path.includes('\\') || /[\u0000-\u001f]/.test(path)) return false;
  return path.split('/').every((segment) => segment !== '..' && segment !== '.' && segment !== '');
}

export const repoReadFile = defineTool({
  name: 'repo_read_file',
  description: "Read a text file of the repository at the execution's subject commit.",
  capability: 'repo:read',
  schema: z.strictObject({ path: z.string().min(1).max(1024).describe('Path relative to the repository root, e.g. src/index.ts') }),
  timeoutMs: 30_000,
  checkArguments: async ({ path }) => (safeRepoPath(path) ? null : 'path'),
  async run({ path }, ctx) {
    const { reader, repo, commit } = boundRepository(ctx);
    const text = await reader.readFile(repo, commit, path, ctx.signal);
    return { output: text ?? `No file ${path} at ${commit}.` };
  },
});
