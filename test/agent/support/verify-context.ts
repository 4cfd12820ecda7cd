import { BUILT_IN_TOOLS } from '../../../core/agent/tools/built-in-tools.js';
import type { VerifyContext } from '../../../core/agent/verify-tool-call.js';
import { publicWeb } from '../../../net/guarded-public-web.js';
import { defaultPolicy, testExecution } from './agent-harness.js';

/** What verifyToolCall is given for a built-in tool: every permission of the default policy, a budget left, the public web. */
export function verifyContext(overrides: Partial<VerifyContext> = {}, tool: Partial<VerifyContext['toolContext']> = {}): VerifyContext {
  const policy = overrides.policy ?? defaultPolicy();
  return {
    tools: new Map(BUILT_IN_TOOLS.map((t) => [t.name, t])),
    policy,
    permissions: ['*'],
    costCents: 0,
    budgetCents: 100,
    seq: 1,
    toolContext: { execution: testExecution(policy), upstreamArtifacts: [], httpAllowlist: [], web: publicWeb, ...tool },
    ...overrides,
  };
}
