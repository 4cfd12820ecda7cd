import type { FakeReply, LlmRequest } from '../../fakes/fake-llm-server.js';

/** The task of the run a request belongs to (its first user message, either wire). */
export function taskOf(request: LlmRequest): string {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const content = messages.find((m) => m.role === 'user')?.content;
  if (typeof content === 'string') return content;
  const text = Array.isArray(content) ? (content as { type?: string; text?: string }[]).find((b) => b.type === 'text')?.text : undefined;
  return text ?? JSON.stringify(content);
}

/** How many tool answers the conversation carries so far (OpenAI `tool` messages, Anthropic `tool_result` blocks). */
export function toolAnswers(request: LlmRequest): number {
  return (request.body.messages as { role: string; content: unknown }[]).reduce((n, m) => {
    if (m.role === 'tool') return n + 1;
    const blocks = Array.isArray(m.content) ? (m.content as { type?: string }[]) : [];
    return n + blocks.filter((b) => b.type === 'tool_result').length;
  }, 0);
}

/**
 * A model that writes `reports` reports in one turn, then answers `final`: a two-request run (either wire).
 * The report names carry the task, so runs can be told apart.
 */
export function writesReports(reports: number, final = 'Reports written.') {
  return (request: LlmRequest): FakeReply => {
    if (toolAnswers(request) > 0) return { text: final };
    return {
      toolCalls: Array.from({ length: reports }, (_, i) => ({
        name: 'write_report',
        arguments: JSON.stringify({ name: `report-${i + 1}`, content: `Findings ${i + 1} for: ${taskOf(request)}` }),
      })),
    };
  };
}
