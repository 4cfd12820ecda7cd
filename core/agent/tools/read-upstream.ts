import { z } from 'zod';
import { defineTool } from './tool.js';

export const readUpstream = defineTool({
  name: 'read_upstream',
  description: "Read the approved artifacts of this stage's upstream stages (reviews, reports).",
  capability: 'lineage:read',
  inProcess: true,
  schema: z.strictObject({}),
  run: async (_args, ctx) =>
    ctx.upstreamArtifacts.length === 0 ? { output: 'This execution has no upstream stages.' } : { data: ctx.upstreamArtifacts },
});
