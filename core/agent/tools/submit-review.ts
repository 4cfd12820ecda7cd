import { z } from 'zod';
import { artifactOf } from './artifact-of.js';
import { defineTool } from './tool.js';

export const submitReview = defineTool({
  name: 'submit_review',
  description: "Submit the reviewer's verdict: whether the change is approved for release, with a summary of the review.",
  capability: 'review:submit',
  inProcess: true,
  schema: z.strictObject({
    approved_for_release: z.boolean().describe('True only when the change may be released'),
    summary: z
      .string()
      .min(1)
      .max(64 * 1024)
      .describe('What was reviewed and why it is (not) approved'),
  }),
  run: async ({ approved_for_release, summary }) => artifactOf('review', 'review', summary, { approved_for_release }),
});
