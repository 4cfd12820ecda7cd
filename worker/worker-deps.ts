import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Certifier } from '../core/agent/certifier.js';
import type { ExecutionJournal } from '../core/agent/journal.js';
import type { PriceTable } from '../core/agent/runtime-deps.js';
import type { Verifier } from '../core/certificates/types.js';
import type { Config } from '../core/config.js';
import type { ReleasePorts } from '../core/release/release-ports.js';
import type { GitHubAppAccess } from '../app/github-access.js';
import type { GateFileReader } from '../core/github/gate-file-reader.js';
import type { ExecutionStore } from '../core/executions/execution-store.js';
import type { WorkflowStore } from '../core/workflows/workflow-store.js';
import type { AgentSessionStore } from '../core/mcp/agent-session.js';

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
  /** GitHub access (the App, installation tokens, GITHUB_TOKEN), built once by server/build-deps.ts. */
  github: GitHubAppAccess;
  /** Reads `.github/shipgate.yml` for the GitHub jobs (the server's reads it in a worker thread). */
  gateFiles: GateFileReader;
  /** Verifies upstream certificates for release admission. */
  verifier: Verifier;
  executions: ExecutionStore;
  /** Workflow records and the guarded transitions their orchestration makes. */
  workflows: WorkflowStore;
  /** Governed agent sessions of the MCP gateway (the expiry sweeper ends expired ones). */
  agentSessions: AgentSessionStore;
  /** Model prices (the built-in table merged with SHIPGATE_PRICES_FILE); the built-in table when absent. */
  prices?: PriceTable;
}
