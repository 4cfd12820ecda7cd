import { jest } from '@jest/globals';
import type { ChatMessage, ProviderRequest, ToolDefinition } from '../../../core/agent/provider.js';
import type { FakeLlm, LlmRequest } from '../../fakes/fake-llm-server.js';

export const readFileTool: ToolDefinition = {
  name: 'repo_read_file',
  description: 'Read one file of the repository at the commit under review.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
};

export const SYSTEM = 'You review changes before release.';
export const TASK = 'Summarise README.md and CHANGELOG.md.';

export function request(model: string, messages: ChatMessage[], signal = new AbortController().signal): ProviderRequest {
  return { model, system: SYSTEM, messages, tools: [readFileTool], maxTokens: 256, signal };
}

/** A scripted reply that lets the test know the fake has the request in hand, then answers late. */
export function slowReply(fake: FakeLlm, delayMs: number): Promise<LlmRequest> {
  return new Promise((received) => {
    fake.script((req) => {
      received(req);
      return { text: 'too late', delayMs };
    });
  });
}

/** Runs a call expected to fail; returns its error and everything written through console meanwhile. */
export async function failureAndConsole(run: () => Promise<unknown>): Promise<{ error: unknown; output: string }> {
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const spies = methods.map((m) => jest.spyOn(console, m).mockImplementation(() => undefined));
  try {
    const error = await run().then(
      () => new Error('expected the call to fail'),
      (e: unknown) => e,
    );
    const output = spies.flatMap((spy) =>
      spy.mock.calls.map((args) => args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : JSON.stringify(a))).join(' ')),
    );
    return { error, output: output.join('\n') };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
