import type { RuntimeDeps } from '../core/agent/runtime-deps.js';
import { BUILT_IN_PRICES } from '../core/agent/prices.js';
import { NO_REPOSITORY_ACCESS } from '../core/agent/tools/bound-repository.js';
import { createGitHubRepoReader } from '../app/github-repo-reader.js';
import { createProviderFactory } from '../llm/create-provider-factory.js';
import { publicWeb } from '../net/guarded-public-web.js';
import type { WorkerDeps } from './worker-deps.js';

/** Everything runExecution needs, from the process's Deps. */
export function buildRuntimeDeps(deps: WorkerDeps): RuntimeDeps {
  const { config, logger } = deps;
  return {
    journal: deps.journal,
    providers: createProviderFactory(config.providers),
    certifier: deps.certifier,
    prices: deps.prices ?? BUILT_IN_PRICES,
    pricesHint: config.providers.pricesFile ?? 'SHIPGATE_PRICES_FILE (a JSON file: model -> cents per million tokens)',
    // repo_* tools read through the App's installation token where it is installed, else GITHUB_TOKEN;
    // with neither they answer that no repository access is configured. Asked at each call, so an App
    // registered from the studio after this worker started is used without a restart.
    repoReader: createGitHubRepoReader(async (repo) => {
      if ((await deps.github.current()).whyNot !== null) throw new Error(NO_REPOSITORY_ACCESS);
      return deps.github.readerOctokit(repo);
    }),
    httpAllowlist: config.httpAllowlist,
    web: publicWeb,
    cancelPollMs: 250,
    log: (event, fields) => logger.info({ event, ...fields }, event),
  };
}
