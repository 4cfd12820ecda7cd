import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { AccountStore } from '../core/accounts/account-store.js';
import type { OidcVerifier } from '../core/accounts/oidc.js';
import type { Certifier } from '../core/agent/certifier.js';
import type { ExecutionJournal } from '../core/agent/journal.js';
import type { SigningKeyStore } from '../core/certificates/signing-key-store.js';
import type { Signer, Verifier } from '../core/certificates/types.js';
import type { ExecutionStore } from '../core/executions/execution-store.js';
import type { PolicyStore } from '../core/policies/policy.js';
import type { ReleasePorts } from '../core/release/release-ports.js';
import type { DeploymentStore } from '../core/github/deployment-store.js';
import type { DeliveryLog } from '../core/github/delivery-log.js';
import type { RateLimiter } from '../core/accounts/rate-limiter.js';
import type { Config } from '../core/config.js';
import type { WorkflowStore } from '../core/workflows/workflow-store.js';
import type { McpServerRegistry } from '../core/mcp/mcp-server-registry.js';
import type { AgentSessionStore } from '../core/mcp/agent-session.js';
import type { AgentKeyStore } from '../core/mcp/agent-key.js';
import type { McpUpstreamClient } from '../core/mcp/mcp-upstream-client.js';
import type { AgentCallApprovals } from '../core/mcp/agent-call-approvals.js';
import type { McpToolPins } from '../core/mcp/mcp-tool-pins.js';
import type { HookCallStore } from '../core/hooks/hook-call.js';
import type { McpSessionStore } from '../core/mcp/mcp-sessions.js';
import type { GatewayCallJournal } from '../core/mcp/gateway-call-journal.js';
import type { GitHubAppCredentialsSource } from '../core/github/app-credentials.js';
import type { AppInstallations } from '../core/github/app-installations.js';
import type { InstallationTokenMinter } from '../core/github/installation-token-minter.js';
import type { AppRegistrationPorts } from '../core/github/app-registration.js';
import type { RepoAccess } from '../core/accounts/repo-access.js';
import type { GitHubSignInPorts } from '../core/accounts/github-sign-in.js';
import type { JsonBodyParser } from './middleware/json-body.js';
import type { EvidenceParser } from '../core/evidence-content/evidence-parser.js';
import type { ListReads } from './list-reads.js';

/** /readyz's question to the database (db/database-readiness.ts). */
export interface DatabaseReadiness {
  /** Whether every migration is applied; throws (503) when the database does not answer. */
  migrationsApplied(): Promise<boolean>;
}

/**
 * Everything a route may use, built once by the composition root (server/build-deps.ts, or a
 * test): named ports only, no database handle (ARCHITECTURE.md, "How a request flows").
 */
export interface Deps {
  config: Config;
  logger: Logger;
  metrics: Registry;
  accounts: AccountStore;
  rateLimiter: RateLimiter;
  /** The service's public signing keys (current and retired), as registered in the database. */
  keys: SigningKeyStore;
  signer: Signer;
  /** Verifies under the current and retired keys known when the process started. */
  verifier: Verifier;
  /** Issues tool-call and execution certificates with `signer`. */
  certifier: Certifier;
  /** Built-in presets and custom policies (immutable versions). */
  policies: PolicyStore;
  /** The release gate: gates, evidence, snapshots, promotions, bound workflows, health probes. */
  release: ReleasePorts;
  /** Reads uploaded evidence documents, off the event loop with a deadline (docs/operations.md, "Security"). */
  evidenceParser: EvidenceParser;
  /** Parses a JSON request body over 1 MiB in a parse thread, so its bytes never hold the event loop. */
  parseLargeJsonBody: JsonBodyParser;
  /** Deployment protection requests and their answers (the GitHub App's deployment rule). */
  deployments: DeploymentStore;
  /** The GitHub App's webhook deliveries and how each ended (ADMIN's deliveries page; the delivery job records them). */
  deliveries: DeliveryLog;
  /** Reads only the HTTP lists make (candidate repositories, the release overview). */
  reads: ListReads;
  /** Answers /readyz. */
  readiness: DatabaseReadiness;
  /** Execution records (POST /tasks queues them; workers run them). */
  executions: ExecutionStore;
  /** The run journal the workers write through (holds the secret key that opens key overrides). */
  journal: ExecutionJournal;
  /** Verifies GitHub Actions OIDC tokens; absent when OIDC is off (SHIPGATE_OIDC_OWNERS unset). */
  oidc?: OidcVerifier;
  /** Workflow records (POST /workflows queues them; workers orchestrate them). */
  workflows: WorkflowStore;
  /** Upstream MCP servers of the gateway (headers sealed with the secret key). */
  mcpServers: McpServerRegistry;
  /** Governed agent sessions (executions of kind agent_session) and their token hashes. */
  agentSessions: AgentSessionStore;
  /** Repository agent keys, each opening a new agent session per MCP session. */
  agentKeys: AgentKeyStore;
  /** MCP sessions (`Mcp-Session-Id`), shared by every replica (docs/mcp-gateway.md, "Any replica serves any session"). */
  mcpSessions: McpSessionStore;
  /** Records gateway calls at their session's next free seq, whichever replica serves them. */
  gatewayCalls: GatewayCallJournal;
  /** The gateway's client of upstream MCP servers. */
  mcpUpstreamClient: McpUpstreamClient;
  /** The pinned tool definitions of the upstreams (docs/mcp-gateway.md, "Pinned tool definitions"). */
  mcpToolPins: McpToolPins;
  /** Gateway calls held under a policy's `ask` for a person's decision (docs/mcp-gateway.md, "Asking a person"). */
  agentCallApprovals: AgentCallApprovals;
  /** Coding agents' tool calls allowed by their pre hook until the post completes them, and the runs agent keys opened (docs/agent-hooks.md). */
  hookCalls: HookCallStore;
  /** Mints the App's installation tokens narrowed to a session's repository (upstreams registered with `auth.github_app`). */
  installationTokens: InstallationTokenMinter;
  /** The GitHub App's credentials in force (environment, else the studio's registration). */
  appCredentials: GitHubAppCredentialsSource;
  /** The App's installations, read from GitHub with the credentials in force at each call (ADMIN's installations page). */
  installations: AppInstallations;
  /** The studio's one-click App registration: its states and stored App, and GitHub's manifest conversion. */
  appRegistration: AppRegistrationPorts;
  /** Who may act on a repository: the role, and GitHub's permission there (docs/api.md, "Repository access"). */
  repoAccess: RepoAccess;
  /** "Sign in with GitHub": identities, states and one-time codes, the OAuth exchange, organisation membership (docs/github-app.md). */
  githubSignIn: GitHubSignInPorts;
}
