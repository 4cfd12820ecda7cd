import { redactOutput } from './output-rules.js';
import { redactJson } from './redact-json.js';
import type { ToolAnswer, ToolResult } from './tools/tool.js';

/**
 * A tool's answer as the model and the record get it (docs/workflows.md, "Governed agent
 * executions": verdict): its text, or its data's JSON text, with the policy's output rules
 * applied to every string value. An artifact the tool stored is the agent's own output and is
 * kept as produced; the verdict judges it.
 */
export function redactToolAnswer(rules: readonly string[], answer: ToolAnswer): ToolResult {
  const output = 'data' in answer ? JSON.stringify(redactJson(rules, answer.data)) : redactOutput(rules, answer.output);
  return answer.artifact ? { output, artifact: answer.artifact } : { output };
}
