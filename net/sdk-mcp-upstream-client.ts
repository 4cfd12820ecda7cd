import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { McpUpstream } from '../core/mcp/mcp-server-registry.js';
import type { McpUpstreamClient, UpstreamResult, UpstreamTool } from '../core/mcp/mcp-upstream-client.js';

/** Listing tools is bounded too: an upstream that hangs must not hang `tools/list`. */
const LIST_TIMEOUT_MS = 30_000;
/** Compiled argument validators, by schema; cleared when full (schemas rarely change). */
const VALIDATOR_CACHE_SIZE = 1000;

/**
 * Opens an SDK client session to the upstream (Streamable HTTP, the upstream's stored headers
 * on every request), runs `use` with it, and ends the session. Every step shares one deadline.
 */
async function withClient<T>(
  upstream: McpUpstream,
  timeoutMs: number,
  use: (client: Client, remaining: () => number) => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  const remaining = () => Math.max(1, deadline - Date.now());
  const client = new Client({ name: 'shipgate-mcp-gateway', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(upstream.url), { requestInit: { headers: upstream.headers } });
  try {
    await client.connect(transport, { timeout: remaining() });
    return await use(client, remaining);
  } finally {
    // Ends the upstream's session (DELETE); a failure to do so is not the call's failure.
    await transport.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
  }
}

/** The gateway's client of upstream MCP servers: the official TypeScript SDK's Client. */
export function createSdkMcpUpstreamClient(): McpUpstreamClient {
  const ajv = new AjvJsonSchemaValidator();
  const validators = new Map<string, ReturnType<AjvJsonSchemaValidator['getValidator']>>();
  return {
    async listTools(upstream) {
      return withClient(upstream, LIST_TIMEOUT_MS, async (client, remaining) => {
        const tools: UpstreamTool[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: remaining() });
          tools.push(...(page.tools as UpstreamTool[]));
          cursor = page.nextCursor;
        } while (cursor);
        return tools;
      });
    },
    async callTool(upstream, name, args, timeoutMs) {
      return withClient(upstream, timeoutMs, async (client, remaining) => {
        const result = await client.callTool({ name, arguments: args }, undefined, { timeout: remaining(), maxTotalTimeout: remaining() });
        return {
          content: (result.content ?? []) as Record<string, unknown>[],
          ...(result.structuredContent ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
          isError: result.isError === true,
        } satisfies UpstreamResult;
      });
    },
    checkArguments(schema, value) {
      const key = JSON.stringify(schema);
      let validate = validators.get(key);
      if (!validate) {
        if (validators.size >= VALIDATOR_CACHE_SIZE) validators.clear();
        validate = ajv.getValidator(schema as Parameters<AjvJsonSchemaValidator['getValidator']>[0]);
        validators.set(key, validate);
      }
      const outcome = validate(value);
      return outcome.valid ? null : outcome.errorMessage;
    },
  };
}
