import type { ToolCallRequest } from './provider.js';
import { verifyToolCall, type Verification, type VerifyContext } from './verify-tool-call.js';

/**
 * How a run governs its tool calls. Production always runs GOVERNED; the other mode exists
 * so bench/governance.ts can measure the same loop without verification and certificates.
 */
export interface Governance {
  verify(call: ToolCallRequest, ctx: VerifyContext): Promise<Verification>;
  /** Whether allowed calls and the finished execution get certificates. */
  certify: boolean;
}

export const GOVERNED: Governance = { verify: verifyToolCall, certify: true };
