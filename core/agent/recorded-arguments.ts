import { redactOutput } from './output-rules.js';
import { redactJson } from './redact-json.js';

/**
 * A tool call's arguments as they are recorded, signed, shown to approvers and exported: every
 * secret the `secrets` output rule knows (a token in a push URL, an API key in a header) replaced
 * by `[REDACTED:secrets:<detector>]`. The policy decides on, and the tool runs with, the arguments
 * as the agent sent them; the record proves what was asked for, not the credential
 * (docs/agent-hooks.md, "Records"; docs/mcp-gateway.md; a governed execution's model's arguments,
 * parsed or as text, alike: docs/workflows.md).
 */
export const recordedArguments = <T>(args: T): T => redactJson(['secrets'], args) as T;

/** A capability or a log field naming what the agent wrote (a path, a host) as it is recorded: its secrets replaced. */
export const recordedText = (text: string): string => redactOutput(['secrets'], text);
