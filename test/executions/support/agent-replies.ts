import type { FakeReply, LlmRequest } from '../../fakes/fake-llm-server.js';

/** The task of the run a request belongs to (its first user message). */
export function taskOf(request: LlmRequest): string {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const first = messages.find((m) => m.role === 'user');
  return typeof first?.content === 'string' ? first.content : JSON.stringify(first?.content);
}

/** How many tool answers the conversation carries so far (OpenAI wire). */
export function toolAnswers(request: LlmRequest): number {
  return (request.body.messages as { role: string }[]).filter((m) => m.role === 'tool').length;
}

/**
 * A model that writes `reports` reports in one turn, then answers `final`: a two-request run.
 * The report names carry the task, so runs can be told apart.
 */
export function writesReports(reports: number, final = 'Reports written.') {
  return (request: LlmRequest): FakeReply => {
    if (toolAnswers(request) > 0) return { text: final };
    return {
      toolCalls: Array.from({ length: reports }, (_, i) => ({
        name: 'write_report', arguments: JSON.stringify({ name: `report-${i + 1}`, content: `Findings ${i + 1} for: ${taskOf(request)}` }),
      })),
    };
  };
}
