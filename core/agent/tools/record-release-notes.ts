import { z } from 'zod';
import { artifactOf } from './artifact-of.js';
import { defineTool } from './tool.js';

/**
 * Records the release notes as the release stage's artifact; nothing is published. Its first
 * name, `publish_release_notes`, said otherwise and is still accepted (docs/workflows.md,
 * "Governed agent executions": tools).
 */
export const recordReleaseNotes = defineTool({
  name: 'record_release_notes',
  aliases: ['publish_release_notes'],
  description: 'Record the release notes of this release as the release stage artifact (hashed with SHA-256; nothing is published).',
  capability: 'release:write',
  inProcess: true,
  schema: z.strictObject({
    content: z
      .string()
      .min(1)
      .max(256 * 1024)
      .describe('The release notes (Markdown)'),
  }),
  run: async ({ content }) => artifactOf('release_notes', 'release-notes', content),
});
