import fs from 'node:fs';
import type { RuntimeDeps } from '../core/agent/runtime-deps.js';
import { BUILT_IN_PRICES, mergePrices, priceTableSchema } from '../core/agent/prices.js';
import { createGitHubRepoReader, githubApiBaseUrl } from '../app/github-repo-reader.js';
import { createProviderFactory } from '../llm/create-provider-factory.js';
import { ConfigError } from './config.js';
import type { Deps } from './deps.js';

/** The built-in price table merged with SHIPGATE_PRICES_FILE, read once at start. */
function loadPrices(file: string | undefined) {
  if (!file) return BUILT_IN_PRICES;
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  SHIPGATE_PRICES_FILE: cannot read ${file} as JSON (${(error as Error).message})`);
  }
  const table = priceTableSchema.safeParse(parsed);
  if (!table.success) {
    throw new ConfigError(`Invalid configuration:\n  SHIPGATE_PRICES_FILE: ${file}: ${table.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return mergePrices(BUILT_IN_PRICES, table.data);
}

/** Everything runExecution needs, from the process's Deps. */
export function buildRuntimeDeps(deps: Deps): RuntimeDeps {
  const { config, logger } = deps;
  return {
    journal: deps.journal,
    providers: createProviderFactory(config.providers),
    certifier: deps.certifier,
    prices: loadPrices(config.providers.pricesFile),
    pricesHint: config.providers.pricesFile ?? 'SHIPGATE_PRICES_FILE (a JSON file: model -> cents per million tokens)',
    // repo_* tools read through GITHUB_TOKEN; without it they answer that no repository access is configured.
    repoReader: config.github.token ? createGitHubRepoReader({ token: config.github.token, baseUrl: githubApiBaseUrl(config.github) }) : undefined,
    httpAllowlist: config.httpAllowlist,
    cancelPollMs: 250,
    log: (event, fields) => logger.info({ event, ...fields }, event),
  };
}
