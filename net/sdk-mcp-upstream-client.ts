import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { McpUpstreamClient, UpstreamConnection, UpstreamResult, UpstreamTool } from '../core/mcp/mcp-upstream-client.js';
import { isGatewayControlledHeader } from '../core/mcp/gateway-controlled-headers.js';
import { NodeHttpMcpTransport } from './node-http-mcp-transport.js';

/** Compiled argument validators, by schema; cleared when full (schemas rarely change). */
const VALIDATOR_CACHE_SIZE = 1000;

/**
 * Each request's headers: the stored ones (names in lower case; none the gateway sets itself, which
 * a row registered before they were refused may hold), and `Authorization: Bearer <bearer()>` over
 * any stored one.
 */
function headersOf(stored: Record<string, string>, bearer?: () => Promise<string>): () => Promise<Record<string, string>> {
  const kept = Object.entries(stored).filter(([name]) => !isGatewayControlledHeader(name));
  const lower = Object.fromEntries(kept.map(([name, value]) => [name.toLowerCase(), value]));
  if (!bearer) return async () => lower;
  return async () => ({ ...lower, authorization: `Bearer ${await bearer()}` });
}

/** The gateway's client of upstream MCP servers: the official TypeScript SDK's Client over Streamable HTTP (net/node-http-mcp-transport.ts). */
export function createSdkMcpUpstreamClient(): McpUpstreamClient {
  const ajv = new AjvJsonSchemaValidator();
  const validators = new Map<string, ReturnType<AjvJsonSchemaValidator['getValidator']>>();
  const bySchema = new WeakMap<object, ReturnType<AjvJsonSchemaValidator['getValidator']>>();
  return {
    async connect(upstream, timeoutMs, events, bearer): Promise<UpstreamConnection> {
      const client = new Client({ name: 'shipgate-mcp-gateway', version: '1' });
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => events.onToolsChanged());
      // The token in force at each request (docs/mcp-gateway.md, "Least-privilege upstream credentials").
      const transport = new NodeHttpMcpTransport(new URL(upstream.url), headersOf(upstream.headers, bearer));
      const close = async () => {
        // Ends the upstream's session (DELETE); a failure to do so is nobody's failure.
        await transport.terminateSession().catch(() => undefined);
        await client.close().catch(() => undefined);
      };
      try {
        await client.connect(transport, { timeout: timeoutMs });
      } catch (error) {
        await close();
        throw error;
      }
      return {
        async listTools(timeout) {
          const deadline = Date.now() + timeout;
          const remaining = () => Math.max(1, deadline - Date.now());
          const tools: UpstreamTool[] = [];
          let cursor: string | undefined;
          do {
            const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: remaining(), maxTotalTimeout: remaining() });
            tools.push(...(page.tools as UpstreamTool[]));
            cursor = page.nextCursor;
          } while (cursor);
          return tools;
        },
        async callTool(name, args, timeout) {
          const result = await client.callTool({ name, arguments: args }, undefined, { timeout, maxTotalTimeout: timeout });
          return {
            content: (result.content ?? []) as Record<string, unknown>[],
            ...(result.structuredContent ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
            isError: result.isError === true,
          } satisfies UpstreamResult;
        },
        close,
      };
    },
    checkArguments(schema, value) {
      // By the schema object first (an MCP session keeps its tool list, so its calls pass the same one), then by its text.
      let validate = bySchema.get(schema);
      if (!validate) {
        const key = JSON.stringify(schema);
        validate = validators.get(key);
        if (!validate) {
          if (validators.size >= VALIDATOR_CACHE_SIZE) validators.clear();
          validate = ajv.getValidator(schema as Parameters<AjvJsonSchemaValidator['getValidator']>[0]);
          validators.set(key, validate);
        }
        bySchema.set(schema, validate);
      }
      const outcome = validate(value);
      return outcome.valid ? null : outcome.errorMessage;
    },
  };
}
