import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type {
  McpUpstreamClient,
  UpstreamConnection,
  UpstreamResult,
  UpstreamSessionCredentials,
  UpstreamTool,
} from '../core/mcp/mcp-upstream-client.js';
import { isGatewayControlledHeader } from '../core/mcp/gateway-controlled-headers.js';
import { headerSecrets, scrubJson, scrubText } from '../core/mcp/scrub-secrets.js';
import { secretSpellings } from '../core/mcp/secret-spellings.js';
import { MAX_UPSTREAM_LIST_PAGES, upstreamListingProblem } from '../core/mcp/upstream-listing-problem.js';
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

/**
 * What an upstream's answers must never hold (docs/mcp-gateway.md, "Limits" and "Least-privilege upstream
 * credentials"): its stored header values and every token minted for the MCP session, each as it is and encoded
 * (secret-spellings.ts), the longest first (so a scheme's token goes with it), as of now (a token minted for the
 * request just answered counts).
 */
function secretsOf(stored: Record<string, string>, credentials?: UpstreamSessionCredentials): () => readonly string[] {
  const longestFirst = (secrets: string[]) => secrets.sort((a, b) => b.length - a.length);
  const headers = longestFirst(headerSecrets(stored).flatMap(secretSpellings));
  if (!credentials) return () => headers;
  // A token's spellings are worked out once, when it is first seen.
  const spelt = new Map<string, string[]>();
  return () => {
    const minted = credentials.minted();
    if (minted.length === 0) return headers;
    for (const token of minted) if (!spelt.has(token)) spelt.set(token, secretSpellings(token));
    return longestFirst([...headers, ...minted.flatMap((token) => spelt.get(token)!)]);
  };
}

/**
 * `work`'s answer, and the message of its failure, without `secrets()`: an upstream may echo the credentials it was
 * sent (in a result, a tool's definition, or an error page), and they must reach no agent, record, pin or log. The
 * answer is serialised once, and parsed again only when a secret was found in it; `check` (why the scrubbed answer
 * cannot be served, or null) is asked only then, since scrubbing may have made it so.
 */
async function scrubbed<T>(secrets: () => readonly string[], work: () => Promise<T>, check?: (answer: T) => string | null): Promise<T> {
  try {
    const answer = await work();
    const clean = scrubJson(answer, secrets());
    const problem = clean === answer ? null : check?.(clean);
    if (problem) throw new Error(problem);
    return clean;
  } catch (error) {
    if (error instanceof Error) error.message = scrubText(error.message, secrets());
    throw error;
  }
}

/** How every upstream regular expression is "run": it matches anything (see argumentsValidator). `code` serves only Ajv's standalone code. */
const uncheckedPatterns = Object.assign(() => ({ test: () => true }), { code: 'uncheckedPatterns' });

/**
 * The SDK's Ajv validator, configured as the SDK configures it, except that the upstream's regular expressions
 * (`pattern`, `patternProperties`) are not run (docs/mcp-gateway.md, "Limits"): an upstream chooses them and an agent
 * chooses the text, and `^(a+)+$` against 40 characters held the event loop for minutes. The upstream checks its own
 * patterns; the gateway checks every other keyword. Output schemas the SDK's client checks are read the same way.
 */
function argumentsValidator(): AjvJsonSchemaValidator {
  const ajv = new Ajv({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    code: { regExp: uncheckedPatterns },
  });
  addFormats.default(ajv); // ajv-formats is CommonJS: its plugin is the `default` export
  return new AjvJsonSchemaValidator(ajv);
}

/** The gateway's client of upstream MCP servers: the official TypeScript SDK's Client over Streamable HTTP (net/node-http-mcp-transport.ts). */
export function createSdkMcpUpstreamClient(): McpUpstreamClient {
  const ajv = argumentsValidator();
  const validators = new Map<string, ReturnType<AjvJsonSchemaValidator['getValidator']>>();
  const bySchema = new WeakMap<object, ReturnType<AjvJsonSchemaValidator['getValidator']>>();
  return {
    async connect(upstream, timeoutMs, events, credentials): Promise<UpstreamConnection> {
      const client = new Client({ name: 'shipgate-mcp-gateway', version: '1' }, { jsonSchemaValidator: ajv });
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => events.onToolsChanged());
      // The token in force at each request (docs/mcp-gateway.md, "Least-privilege upstream credentials").
      const transport = new NodeHttpMcpTransport(new URL(upstream.url), headersOf(upstream.headers, credentials?.bearer));
      const close = async () => {
        // Ends the upstream's session (DELETE); a failure to do so is nobody's failure.
        await transport.terminateSession().catch(() => undefined);
        await client.close().catch(() => undefined);
      };
      // Everything the upstream answers passes here, once (docs/mcp-gateway.md, "Limits").
      const secrets = secretsOf(upstream.headers, credentials);
      try {
        await scrubbed(secrets, () => client.connect(transport, { timeout: timeoutMs }));
      } catch (error) {
        await close();
        throw error;
      }
      return {
        // A listing is checked as listed and, when scrubbed, again: two names may have become one, or a definition longer.
        listTools: (timeout) => scrubbed(secrets, () => listTools(timeout), upstreamListingProblem),
        callTool: (name, args, timeout) => scrubbed(secrets, () => callTool(name, args, timeout)),
        close,
      };

      async function listTools(timeout: number): Promise<UpstreamTool[]> {
        const deadline = Date.now() + timeout;
        const remaining = () => Math.max(1, deadline - Date.now());
        const tools: UpstreamTool[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          if (++pages > MAX_UPSTREAM_LIST_PAGES) throw new Error(`its tool list goes on past ${MAX_UPSTREAM_LIST_PAGES} pages`);
          const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: remaining(), maxTotalTimeout: remaining() });
          tools.push(...(page.tools as UpstreamTool[]));
          cursor = page.nextCursor;
        } while (cursor);
        const problem = upstreamListingProblem(tools);
        if (problem) throw new Error(problem);
        return tools;
      }

      async function callTool(name: string, args: Record<string, unknown>, timeout: number): Promise<UpstreamResult> {
        const result = await client.callTool({ name, arguments: args }, undefined, { timeout, maxTotalTimeout: timeout });
        return {
          content: (result.content ?? []) as Record<string, unknown>[],
          ...(result.structuredContent ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
          isError: result.isError === true,
        };
      }
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
