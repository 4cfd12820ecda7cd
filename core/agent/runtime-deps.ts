import type { PublicWeb } from './tools/public-web.js';
import type { RepoReader } from '../github/repo-reader.js';
import type { Certifier } from './certifier.js';
import type { ExecutionJournal } from './journal.js';
import type { ProviderFactory } from './provider.js';
import type { Tool } from './tools/tool.js';

/** Model -> US cents per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cached_input?: number;
  cache_write?: number;
}
export type PriceTable = Record<string, ModelPrice>;

/** Everything runExecution(deps, executionId) needs; wired by the worker. */
export interface RuntimeDeps {
  journal: ExecutionJournal;
  providers: ProviderFactory;
  certifier: Certifier;
  prices: PriceTable;
  /** Where the price table can be extended (named in model_price_unknown errors). */
  pricesHint: string;
  repoReader?: RepoReader;
  /** Hosts http_get may reach even when they resolve to private addresses (tests, internal mirrors). */
  httpAllowlist: string[];
  /** The network behind http_get. */
  web: PublicWeb;
  /** How often the run checks for cancellation while a provider call is in flight. */
  cancelPollMs: number;
  /** The tool registry; the built-in tools (core/agent/tools/built-in-tools.ts) when absent. */
  tools?: readonly Tool[];
  log(event: string, fields: Record<string, unknown>): void;
}
