import type { IncomingHttpHeaders } from 'node:http';

export type LlmApi = 'openai' | 'anthropic';

/** A tool call the fake model makes; `arguments` is raw text and may be deliberately unparsable. */
export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: string;
}

/** Neutral token counts; each wire format derives its own fields (OpenAI prompt_tokens = input + cacheRead). */
export interface FakeUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** One scripted model turn, or an HTTP failure when `status` is set. */
export interface FakeReply {
  text?: string | null;
  toolCalls?: FakeToolCall[];
  /** null: the response carries no usage at all. */
  usage?: FakeUsage | null;
  /** Sent verbatim as the response's usage object (to test the adapters' mapping of wire fields). */
  rawUsage?: Record<string, unknown>;
  stopReason?: string;
  /** Answer with this HTTP status and the provider's error JSON instead of a completion. */
  status?: number;
  errorMessage?: string;
  /** Wait this long before answering (the request may be aborted meanwhile). */
  delayMs?: number;
}

/** What the fake received: tests assert on what the model saw and which credentials came with it. */
export interface LlmRequest {
  api: LlmApi;
  path: string;
  headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests dig into the wire JSON freely
  body: any;
  /** The HTTP status answered; null while pending or when the client went away first. */
  status: number | null;
  /** The client closed the connection before the response was sent. */
  aborted: boolean;
}

export type FakeResponder = (request: LlmRequest) => FakeReply | Promise<FakeReply>;

/** One wire format: its credentials, its validation (refusals are 400s) and its response shapes. */
export interface LlmWire {
  api: LlmApi;
  credential(headers: IncomingHttpHeaders): string | undefined;
  authError(sent: string | undefined): { status: number; body: unknown };
  /** The API's refusal message for an invalid request, or null when it is acceptable. */
  validate(body: unknown, headers: IncomingHttpHeaders): string | null;
  completion(reply: FakeReply, request: LlmRequest, nextId: () => number): unknown;
  error(status: number, message: string): unknown;
}

export const DEFAULT_USAGE: Required<FakeUsage> = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };

export function usageOf(reply: FakeReply): Required<FakeUsage> {
  return { ...DEFAULT_USAGE, ...reply.usage };
}

/** The providers' error `type` for an HTTP status. */
export function errorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? 'api_error';
}

/** A tool-name check both APIs make. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
