import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Certifier } from '../core/agent/certifier.js';
import type { ExecutionJournal } from '../core/agent/journal.js';
import type { PriceTable } from '../core/agent/runtime-deps.js';
import type { Verifier } from '../core/certificates/types.js';
import type { Config } from '../core/config.js';
import type { ReleasePorts } from '../core/release/release-ports.js';
import type { GitHubAppAccess } from '../app/github-access.js';
import { githubAccessFromConfig } from '../app/github-access-from-config.js';
import type { ExecutionStore } from '../core/executions/execution-store.js';
import type { WorkflowStore } from '../core/workflows/workflow-store.js';

/** What a job worker needs from the composition root (server/ hands it the process's deps). */
export interface WorkerDeps {
  config: Config;
  db: Knex;
  logger: Logger;
  /** The run journal the jobs write through (holds the secret key that opens key overrides). */
  journal: ExecutionJournal;
  certifier: Certifier;
  /** The release gate the GitHub jobs evaluate against. */
  release: ReleasePorts;
  /** GitHub access (App installation tokens or GITHUB_TOKEN); built from config when absent. */
  github?: GitHubAppAccess;
  /** Verifies upstream certificates for release admission. */
  verifier: Verifier;
  executions: ExecutionStore;
  /** Workflow records and the guarded transitions their orchestration makes. */
  workflows: WorkflowStore;
  /** Model prices (the built-in table merged with SHIPGATE_PRICES_FILE); the built-in table when absent. */
  prices?: PriceTable;
}

const accessOf = new WeakMap<WorkerDeps, GitHubAppAccess>();

/** The process's GitHub access: the one handed in, else one built from config (once per deps). */
export function githubAccessOf(deps: WorkerDeps): GitHubAppAccess {
  if (deps.github) return deps.github;
  if (!accessOf.has(deps)) accessOf.set(deps, githubAccessFromConfig(deps.config, deps.logger));
  return accessOf.get(deps)!;
}
