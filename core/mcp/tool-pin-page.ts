import { TOOL_PIN_STATES, type ToolPinCursor, type ToolPinPageRequest } from './mcp-tool-pins.js';
import { compareNames } from './reconcile-tool-pins.js';

/** The review's order: by state (TOOL_PIN_STATES: what awaits an ADMIN first), then by name. */
const inReviewOrder = (a: ToolPinCursor, b: ToolPinCursor): number =>
  TOOL_PIN_STATES.indexOf(a.state) - TOOL_PIN_STATES.indexOf(b.state) || compareNames(a.tool, b.tool);

/**
 * A page of an upstream's tools as ADMINs review them (docs/mcp-gateway.md, "Pinned tool definitions"): changed
 * tools, then new ones, rejected ones and pinned ones, each by name, so the change an ADMIN must see leads the first
 * page however many tools the upstream listed. Answers the page's tools and, when more follow, where the next begins.
 */
export function toolPinPage(pins: readonly ToolPinCursor[], request: ToolPinPageRequest): { tools: ToolPinCursor[]; next?: ToolPinCursor } {
  const { after, state } = request;
  const following = pins
    .filter((pin) => (state === undefined || pin.state === state) && (after === undefined || inReviewOrder(pin, after) > 0))
    .sort(inReviewOrder);
  const tools = following.slice(0, request.limit);
  return following.length > tools.length ? { tools, next: tools[tools.length - 1] } : { tools };
}
