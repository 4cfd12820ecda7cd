import { redactSecrets } from './output-rules.js';
import type { Tool, ToolAnswer, ToolContext } from './tools/tool.js';

/** Applies to tools that declare no limit of their own. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/**
 * Runs an allowed call within the tool's time limit. A failure or a timeout is the call's
 * answer (`ERROR: ...`), not the run's end: the model may recover from it.
 */
export async function runTool(tool: Tool, input: unknown, ctx: Omit<ToolContext, 'signal'>): Promise<ToolAnswer> {
  const limitMs = tool.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`${tool.name} timed out after ${limitMs} ms`);
      controller.abort(error);
      reject(error);
    }, limitMs);
  });
  try {
    return await Promise.race([tool.run(input, { ...ctx, signal: controller.signal }), timeout]);
  } catch (error) {
    const message = controller.signal.aborted ? (controller.signal.reason as Error).message : (error as Error).message;
    return { output: `ERROR: ${redactSecrets(message ?? String(error))}` };
  } finally {
    clearTimeout(timer);
  }
}
