import { z } from 'zod';
import { artifactOf } from './artifact-of.js';
import { defineTool } from './tool.js';

export const publishReleaseNotes = defineTool({
  name: 'publish_release_notes',
  description: 'Publish the release notes of this release (the release stage artifact).',
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
