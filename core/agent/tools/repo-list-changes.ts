import { z } from 'zod';
import { boundRepository } from './bound-repository.js';
import { defineTool } from './tool.js';

export const repoListChanges = defineTool({
  name: 'repo_list_changes',
  description: "List the files changed by the execution's subject commit (name, status, additions, deletions).",
  capability: 'repo:read',
  schema: z.strictObject({}),
  timeoutMs: 30_000,
  async run(_args, ctx) {
    const { reader, repo, commit } = boundRepository(ctx);
    const changes = await reader.listChanges(repo, null, commit, ctx.signal);
    return { data: changes };
  },
});
