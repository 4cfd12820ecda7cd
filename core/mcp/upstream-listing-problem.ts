import { isRecordableJson } from '../json-value-holds.js';
import { isStorableText } from '../storable-text.js';
import type { UpstreamTool } from './mcp-upstream-client.js';
import { definitionOf } from './tool-definition.js';

/** The most tools one upstream may list, and pages it may list them in (docs/mcp-gateway.md, "Limits"). */
export const MAX_UPSTREAM_TOOLS = 1000;
export const MAX_UPSTREAM_LIST_PAGES = 100;
/** The MCP specification's longest tool name. */
const MAX_TOOL_NAME_LENGTH = 128;
/**
 * The most a tool's definition (what is pinned, stored and shown to ADMINs: name, title, description, inputSchema,
 * annotations) may hold, as UTF-8 JSON: 64 KiB, some 10,000 words, many times any tool an agent is meant to read; a
 * review page of 20 tools (each with its pinned and its current definition) stays under 3 MiB.
 */
export const MAX_TOOL_DEFINITION_BYTES = 65_536;

/**
 * Why an upstream's tool listing cannot be served, or null (docs/mcp-gateway.md, "Limits"). Such a listing leaves
 * that upstream out, logged, rather than failing the session's whole list: a name listed twice (its second
 * definition would pass unpinned under the first one's pin), a name that is empty, too long or not storable, a
 * definition PostgreSQL or a signature cannot keep as given (nested past 100 levels, a NUL), a definition larger than
 * MAX_TOOL_DEFINITION_BYTES (stored whole or not at all: an ADMIN approves what they saw), or too many tools.
 */
export function upstreamListingProblem(tools: readonly UpstreamTool[]): string | null {
  if (tools.length > MAX_UPSTREAM_TOOLS) return `it lists ${tools.length} tools, more than the ${MAX_UPSTREAM_TOOLS} a listing may hold`;
  const names = new Set<string>();
  for (const tool of tools) {
    const name: unknown = tool?.name;
    if (typeof name !== 'string' || name.length === 0 || name.length > MAX_TOOL_NAME_LENGTH || !isStorableText(name))
      return `it lists a tool whose name is not 1-${MAX_TOOL_NAME_LENGTH} characters of storable text`;
    if (names.has(name)) return `it lists the tool '${name}' twice`;
    names.add(name);
    if (!isRecordableJson(tool)) return `the definition of its tool '${name}' nests deeper than 100 levels or holds what cannot be stored`;
    if (Buffer.byteLength(JSON.stringify(definitionOf(tool))) > MAX_TOOL_DEFINITION_BYTES)
      return `the definition of its tool '${name}' is larger than the ${MAX_TOOL_DEFINITION_BYTES} bytes of JSON a stored definition may hold`;
  }
  return null;
}
