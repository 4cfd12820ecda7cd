import type { Logger } from 'pino';
import type { Certifier } from '../core/agent/certifier.js';
import type { ExecutionJournal } from '../core/agent/journal.js';
import type { PriceTable } from '../core/agent/runtime-deps.js';
import type { Verifier } from '../core/certificates/types.js';
import type { Config } from '../core/config.js';
import type { ReleasePorts } from '../core/release/release-ports.js';
import type { SessionHeadsReader } from '../core/release/session-heads-reader.js';
import type { GitHubAppAccess } from '../app/github-access.js';
import type { AuthorshipStore } from '../core/github/authorship-store.js';
import type { CommitArrivalStore } from '../core/github/commit-arrival-store.js';
import type { DeliveryLog } from '../core/github/delivery-log.js';
import type { DeploymentStore } from '../core/github/deployment-store.js';
import type { GateFileReader } from '../core/github/gate-file-reader.js';
import type { GitHubAppStore } from '../core/github/github-app-store.js';
import type { RecoveryStore } from '../core/github/recovery-port.js';
import type { ExecutionStore } from '../core/executions/execution-store.js';
import type { WorkflowStore } from '../core/workflows/workflow-store.js';
import type { AgentSessionStore } from '../core/mcp/agent-session.js';
import type { WorkerUpkeep } from '../db/worker-upkeep.js';

/**
 * What a job worker needs from the composition root (server/build-deps.ts builds each port once
 * and hands the process's deps): ports only, no database handle (ARCHITECTURE.md, "How a job flows").
 */
export interface WorkerDeps {
  config: Config;
  logger: Logger;
  /** The run journal the jobs write through (holds the secret key that opens key overrides). */
  journal: ExecutionJournal;
  certifier: Certifier;
  /** The release gate the GitHub jobs evaluate against. */
  release: ReleasePorts;
  /** GitHub access (the App, installation tokens, GITHUB_TOKEN): ask `current()` when GitHub is needed. */
  github: GitHubAppAccess;
  /** The GitHub App's records: claimed deliveries, pull request heads, merge groups, and the publish jobs it queues. */
  githubAppStore: GitHubAppStore;
  /** How each claimed delivery ended (the deliveries page). */
  deliveries: DeliveryLog;
  /** Deployment protection requests and their answers. */
  deployments: DeploymentStore;
  /** Pull requests' authorship facts, per head commit. */
  authorship: AuthorshipStore;
  /** When each push arrived, per commit and branch. */
  commitArrivals: CommitArrivalStore;
  /** Missed-delivery recovery's lease, high-water mark and schedule. */
  recovery: RecoveryStore;
  /** An agent session's open pull request heads, for the session recheck. */
  sessionHeads: SessionHeadsReader;
  /** Reads `.github/shipgate.yml` for the GitHub jobs (the server's reads it in a worker thread). */
  gateFiles: GateFileReader;
  /** Verifies upstream certificates for release admission. */
  verifier: Verifier;
  executions: ExecutionStore;
  /** Workflow records and the guarded transitions their orchestration makes. */
  workflows: WorkflowStore;
  /** Governed agent sessions of the MCP gateway (the expiry sweeper ends expired ones). */
  agentSessions: AgentSessionStore;
  /** Heartbeats, dead pools' jobs, pruning: the worker's own upkeep in the database. */
  upkeep: WorkerUpkeep;
  /** Model prices (the built-in table merged with SHIPGATE_PRICES_FILE); the built-in table when absent. */
  prices?: PriceTable;
}
