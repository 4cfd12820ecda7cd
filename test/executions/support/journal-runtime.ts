import { generateKeyPairSync } from 'node:crypto';
import type { ExecutionJournal } from '../../../core/agent/journal.js';
import { BUILT_IN_PRICES } from '../../../core/agent/prices.js';
import type { RuntimeDeps } from '../../../core/agent/runtime-deps.js';
import { createCertifier } from '../../../core/certificates/create-certifier.js';
import { createSigner } from '../../../core/certificates/create-signer.js';
import { publicWeb } from '../../../net/guarded-public-web.js';
import { ScriptedProvider, type ScriptStep } from '../../support/scripted-provider.js';

/** The runtime's deps for runs on `journal` with a scripted provider and the real certifier. */
export function journalRuntime(steps: ScriptStep[], journal: ExecutionJournal): { deps: RuntimeDeps; provider: ScriptedProvider } {
  const provider = new ScriptedProvider(steps);
  const deps: RuntimeDeps = {
    journal,
    providers: () => provider,
    certifier: createCertifier(createSigner(generateKeyPairSync('ed25519').privateKey)),
    prices: BUILT_IN_PRICES,
    pricesHint: 'SHIPGATE_PRICES_FILE',
    httpAllowlist: [],
    web: publicWeb,
    cancelPollMs: 20,
    log: () => {},
  };
  return { deps, provider };
}
