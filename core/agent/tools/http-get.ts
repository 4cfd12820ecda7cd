import { z } from 'zod';
import { defineTool } from './tool.js';

const MAX_BYTES = 1024 * 1024;

export const httpGet = defineTool({
  name: 'http_get',
  description:
    'GET a public http(s) URL and return the status, content type and body (at most 1 MiB). Private, loopback and link-local addresses are refused.',
  capability: 'network:http:get',
  schema: z.strictObject({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .describe('Absolute http or https URL'),
  }),
  timeoutMs: 10_000,
  checkArguments: ({ url }, ctx) => ctx.web.checkHost(new URL(url), ctx.httpAllowlist),
  async run({ url }, ctx) {
    const page = await ctx.web.fetch(new URL(url), ctx.httpAllowlist, { maxBytes: MAX_BYTES, maxRedirects: 3 }, ctx.signal);
    const head = `HTTP ${page.status}${page.contentType ? ` (${page.contentType})` : ''} ${page.url}`;
    return { output: `${head}\n\n${page.body}${page.truncated ? '\n[truncated at 1 MiB]' : ''}` };
  },
});
