import type { ProviderFactory } from '../agent/provider.js';
import type { RuntimeDeps } from '../agent/runtime-deps.js';
import { fenceJournal } from './fence-journal.js';

/** Providers whose every request also aborts when `signal` does. */
function abortingWith(providers: ProviderFactory, signal: AbortSignal): ProviderFactory {
  return (name, apiKeyOverride) => {
    const provider = providers(name, apiKeyOverride);
    if (!provider) return undefined;
    return {
      name: provider.name,
      complete: (request) => provider.complete({ ...request, signal: AbortSignal.any([request.signal, signal]) }),
    };
  };
}

/**
 * The runtime of one job attempt: once `signal` aborts (the worker stops and hands the job
 * back), the in-flight provider request is aborted and the journal refuses every write, so
 * the worker that resumes the job is the only one recording steps.
 */
export function fenceRuntime(deps: RuntimeDeps, signal: AbortSignal): RuntimeDeps {
  return { ...deps, journal: fenceJournal(deps.journal, signal), providers: abortingWith(deps.providers, signal) };
}
