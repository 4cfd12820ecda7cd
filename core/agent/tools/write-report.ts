import { z } from 'zod';
import { artifactOf } from './artifact-of.js';
import { defineTool } from './tool.js';

export const writeReport = defineTool({
  name: 'write_report',
  description: 'Store a text report as an artifact of this execution (hashed with SHA-256).',
  capability: 'document:write:reports',
  inProcess: true,
  schema: z.strictObject({
    name: z.string().min(1).max(120).describe('Short name of the report'),
    content: z
      .string()
      .max(256 * 1024)
      .describe('The report text (Markdown welcome)'),
  }),
  run: async ({ name, content }) => artifactOf('report', name, content),
});
