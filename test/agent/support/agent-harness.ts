import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { RunState } from '../../../core/agent/journal.js';
import { BUILT_IN_PRICES } from '../../../core/agent/prices.js';
import type { Provider } from '../../../core/agent/provider.js';
import { runExecution } from '../../../core/agent/run-execution.js';
import type { PriceTable, RuntimeDeps } from '../../../core/agent/runtime-deps.js';
import { createCertifier } from '../../../core/certificates/create-certifier.js';
import { createSigner } from '../../../core/certificates/create-signer.js';
import type { Execution } from '../../../core/executions/execution.js';
import { builtInPolicy } from '../../../core/policies/built-in-policies.js';
import { policyRef } from '../../../core/policies/policy-digest.js';
import type { Policy } from '../../../core/policies/policy.js';
import { MemoryJournal } from '../../support/memory-journal.js';
import { ScriptedProvider, type ScriptStep } from '../../support/scripted-provider.js';
import { publicWeb } from '../../../net/guarded-public-web.js';

function preset(name: string, overrides: Partial<Policy>): Policy {
  const policy = builtInPolicy(name);
  if (!policy) throw new Error(`no built-in policy ${name}`);
  return { ...policy, ...overrides };
}

/** The built-in `default` preset: everything granted, denials are warnings, secrets rule. */
export function defaultPolicy(overrides: Partial<Policy> = {}): Policy {
  return preset('default', overrides);
}

/** The built-in `hipaa` preset: no network, denied calls block, secrets and PII rules. */
export function hipaaPolicy(overrides: Partial<Policy> = {}): Policy {
  return preset('hipaa', overrides);
}

export function testExecution(policy: Policy, overrides: Partial<Execution> = {}): Execution {
  return {
    id: randomUUID(),
    kind: 'task',
    owner_id: randomUUID(),
    workflow_id: null,
    stage_id: null,
    task: 'Summarise the change and write a report.',
    status: 'queued',
    verdict: null,
    policy: policyRef(policy),
    stage_role: 'worker',
    permissions: policy.defaults,
    dropped_permissions: [],
    budget_cents: 1500,
    cost_cents: 0,
    provider: 'openai',
    model: 'gpt-4o-mini',
    api_key_override: false,
    upstream_execution_ids: [],
    repo_root: null,
    commit_sha: null,
    tool_calls: [],
    certificates: [],
    artifacts: [],
    output: null,
    error: null,
    created_at: new Date().toISOString(),
    started_at: null,
    finished_at: null,
    ...overrides,
  };
}

export interface HarnessOptions {
  policy?: Policy;
  execution?: Partial<Execution>;
  state?: Partial<Omit<RunState, 'execution' | 'policy'>>;
  /** false: no provider configured. */
  provider?: Provider | false;
  deps?: Partial<RuntimeDeps>;
  prices?: PriceTable;
}

export interface Harness {
  id: string;
  journal: MemoryJournal;
  provider: ScriptedProvider;
  deps: RuntimeDeps;
  logs: { event: string; fields: Record<string, unknown> }[];
  run(): Promise<void>;
  stored(): ReturnType<MemoryJournal['get']>;
}

/** A run of the real runtime against the memory journal, a scripted provider and the real certifier. */
export function agentHarness(steps: ScriptStep[], options: HarnessOptions = {}): Harness {
  const policy = options.policy ?? defaultPolicy();
  const journal = new MemoryJournal();
  const provider = new ScriptedProvider(steps);
  const execution = testExecution(policy, options.execution);
  const id = journal.add({ execution, policy, transcript: [], upstreamArtifacts: [], upstreamCertificateDigests: [], ...options.state });
  const logs: Harness['logs'] = [];
  const deps: RuntimeDeps = {
    journal,
    providers: () => (options.provider === false ? undefined : (options.provider ?? provider)),
    certifier: createCertifier(createSigner(generateKeyPairSync('ed25519').privateKey)),
    prices: options.prices ?? BUILT_IN_PRICES,
    pricesHint: 'SHIPGATE_PRICES_FILE',
    httpAllowlist: [],
    web: publicWeb,
    cancelPollMs: 10,
    log: (event, fields) => logs.push({ event, fields }),
    ...options.deps,
  };
  return { id, journal, provider, deps, logs, run: () => runExecution(deps, id), stored: () => journal.get(id) };
}
