import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createCertifier } from '../core/certificates/create-certifier.js';
import { createSigner } from '../core/certificates/create-signer.js';
import { createVerifier } from '../core/certificates/create-verifier.js';
import { resourceUris } from '../core/certificates/resource-uris.js';
import { createAccountStore } from '../db/stores/accounts/postgres-account-store.js';
import { createExecutionJournal } from '../db/stores/agent/postgres-execution-journal.js';
import { createWorkflowStore } from '../db/stores/workflows/postgres-workflow-store.js';
import { createExecutionStore } from '../db/stores/executions/postgres-execution-store.js';
import { createMcpServerRegistry } from '../db/stores/mcp/postgres-mcp-server-registry.js';
import { createAgentCallApprovals } from '../db/stores/mcp/postgres-agent-call-approvals.js';
import { createHookCallStore } from '../db/stores/hooks/postgres-hook-call-store.js';
import { createMcpToolPins } from '../db/stores/mcp/postgres-mcp-tool-pins.js';
import { createAgentSessionStore } from '../db/stores/mcp/postgres-agent-session-store.js';
import { createMcpSessionStore } from '../db/stores/mcp/postgres-mcp-session-store.js';
import { createGatewayCallJournal } from '../db/stores/mcp/postgres-gateway-call-journal.js';
import { createAgentKeyStore } from '../db/stores/mcp/postgres-agent-key-store.js';
import { createSdkMcpUpstreamClient } from '../net/sdk-mcp-upstream-client.js';
import { createPolicyStore } from '../db/stores/policies/postgres-policy-store.js';
import { createRateLimiter } from '../db/stores/accounts/postgres-rate-limiter.js';
import { createReleasePorts } from '../db/stores/release/postgres-release-ports.js';
import { createDeploymentStore } from '../db/stores/github/postgres-deployment-store.js';
import { createSigningKeyStore } from '../db/stores/certificates/postgres-signing-key-store.js';
import { createGitHubAppStore } from '../db/stores/github/postgres-github-app-store.js';
import { createDeliveryLog } from '../db/stores/github/postgres-delivery-log.js';
import { createAuthorshipStore } from '../db/stores/github/postgres-authorship-store.js';
import { createCommitArrivalStore } from '../db/stores/github/postgres-commit-arrival-store.js';
import { createRecoveryStore } from '../db/stores/github/postgres-recovery-store.js';
import { sessionOpenHeads } from '../db/stores/release/session-coverage-records.js';
import { createReleaseOverviewReads } from '../db/stores/release/overview-reads.js';
import { createRepositoriesWithRecords } from '../db/stores/release/repositories-with-records.js';
import { databaseReadiness } from '../db/database-readiness.js';
import { createWorkerUpkeep } from '../db/worker-upkeep.js';
import type { SigningKeyStore } from '../core/certificates/signing-key-store.js';
import type { WorkerDeps } from '../worker/worker-deps.js';
import { createOidcVerifier } from '../net/oidc-verifier.js';
import type { Config } from '../core/config.js';
import type { Metrics } from './create-metrics.js';
import type { Deps } from '../api/deps.js';
import { createAppRegistrationStore } from '../db/stores/github/postgres-app-registration-store.js';
import { registeredAppCredentialsSource } from '../app/registered-app-credentials.js';
import { githubManifestConversion } from '../app/github-manifest-conversion.js';
import { githubAccessFromConfig, githubApiBaseUrl } from '../app/github-access-from-config.js';
import { octokitInstallationTokenMinter } from '../app/octokit-installation-token-minter.js';
import { environmentAppCredentials } from '../app/environment-app-credentials.js';
import { octokitAppInstallations } from '../app/octokit-app-installations.js';
import { NO_GITHUB_ACCESS } from '../app/github-access.js';
import { loadSecretKey } from './load-secret-key.js';
import { createRepoAccess, repoAccessModeOf } from '../core/accounts/repo-access.js';
import { cachedRepoPermissions } from '../core/accounts/cached-repo-permissions.js';
import { installationPermissionReader } from '../app/installation-permission-reader.js';
import { ephemeralSigningKeys, loadSigningKey, type SigningKeys } from './load-signing-key.js';
import { createGitHubSignInStore } from '../db/stores/accounts/postgres-github-sign-in-store.js';
import { githubOAuthWebFlow } from '../app/github-oauth-web-flow.js';
import { installationOrgMembership } from '../app/installation-org-membership.js';
import { githubWebUrl } from '../core/github/app-manifest.js';
import { threadPoolEvidenceParser, type PooledEvidenceParser } from './thread-pool-evidence-parser.js';
import { threadPoolGateFileReader, type PooledGateFileReader } from './thread-pool-gate-file-reader.js';

/**
 * What the process wires: the routes' Deps and the job worker's WorkerDeps, each port built once
 * here (GitHub access for the webhook and the worker among them: one Probot per credential, one
 * installation-token cache). Past this point nothing holds the database handle.
 */
export interface ServiceDeps extends Deps, WorkerDeps {
  /** Its threads start on the first upload; whoever built the deps closes it (serve's stop, a test's close). */
  evidenceParser: PooledEvidenceParser;
  /** Reads `.github/shipgate.yml` for the worker's GitHub jobs; its thread starts on the first read, and is closed like the parser's. */
  gateFiles: PooledGateFileReader;
}

/** The signing key as loadSigningKey registers it, with the key store it used, which buildDeps then serves. */
export type RegisteredSigningKeys = SigningKeys & { store: SigningKeyStore };

/**
 * The first step of the composition root: the signing key, loaded (and registered) before anything
 * is served, since `serve` must sign before it listens; hand the answer to buildDeps.
 */
export async function loadServiceSigningKeys(
  config: Config,
  db: Knex,
  options?: Parameters<typeof loadSigningKey>[2],
): Promise<RegisteredSigningKeys> {
  const store = createSigningKeyStore(db);
  return { ...(await loadSigningKey(config, store, options)), store };
}

/**
 * Wires the stores and services every route and job uses. Tests call it with their own database.
 * `signing` comes from loadServiceSigningKeys (async, so the composition root runs it first); without
 * it certificates are signed with a throwaway key that nothing else can verify.
 */
export function buildDeps(
  config: Config,
  db: Knex,
  logger: Logger,
  metrics: Metrics,
  signing: SigningKeys | RegisteredSigningKeys = ephemeralSigningKeys(),
): ServiceDeps {
  const signer = createSigner(signing.privateKey);
  const verifier = createVerifier(signing.publicKeys);
  const secretKey = loadSecretKey(config);
  const policies = createPolicyStore(db);
  // The App's credentials in force: the environment's, else the studio's registration (re-checked every few seconds).
  const appRegistrations = createAppRegistrationStore(db, secretKey, config.github.deliveryRecoverySeconds);
  const appCredentials = registeredAppCredentialsSource(config.github, appRegistrations);
  const github = githubAccessFromConfig(config, logger, appCredentials);
  // What the environment gives at start; an App registered from the studio is read when GitHub is needed.
  if (!environmentAppCredentials(config.github) && !config.github.token)
    logger.info({ event: 'github_posting_disabled' }, NO_GITHUB_ACCESS);
  const uris = resourceUris(config.configuredPublicUrl);
  const repoAccess = createRepoAccess({
    mode: async () => repoAccessModeOf(config.repoAccess, (await appCredentials.current()) !== null),
    reader: cachedRepoPermissions(installationPermissionReader(github)),
  });
  const parseThreads = threadPoolEvidenceParser({ deadlineSeconds: config.parseDeadlineSeconds });
  return {
    config,
    logger,
    metrics: metrics.registry,
    accounts: createAccountStore(db),
    rateLimiter: createRateLimiter(db),
    keys: 'store' in signing ? signing.store : createSigningKeyStore(db),
    signer,
    verifier,
    certifier: createCertifier(signer, uris),
    policies,
    release: createReleasePorts(db, signer, verifier, uris, config.decisionCacheCommits),
    evidenceParser: parseThreads,
    parseLargeJsonBody: parseThreads.parseJsonBody,
    gateFiles: threadPoolGateFileReader(),
    deployments: createDeploymentStore(db),
    deliveries: createDeliveryLog(db),
    reads: { repositoriesWith: createRepositoriesWithRecords(db), releaseOverview: createReleaseOverviewReads(db) },
    readiness: databaseReadiness(db),
    githubAppStore: createGitHubAppStore(db),
    authorship: createAuthorshipStore(db),
    commitArrivals: createCommitArrivalStore(db),
    recovery: createRecoveryStore(db),
    sessionHeads: { openHeads: (sessionId) => sessionOpenHeads(db, sessionId) },
    upkeep: createWorkerUpkeep(db, logger),
    executions: createExecutionStore(db, secretKey),
    journal: createExecutionJournal(db, secretKey, policies),
    oidc: config.oidc.owners.length > 0 ? createOidcVerifier(config.oidc) : undefined,
    workflows: createWorkflowStore(db, secretKey),
    mcpServers: createMcpServerRegistry(db, secretKey),
    agentSessions: createAgentSessionStore(db, secretKey),
    agentKeys: createAgentKeyStore(db),
    mcpSessions: createMcpSessionStore(db),
    gatewayCalls: createGatewayCallJournal(db),
    mcpUpstreamClient: createSdkMcpUpstreamClient(),
    mcpToolPins: createMcpToolPins(db),
    agentCallApprovals: createAgentCallApprovals(db),
    hookCalls: createHookCallStore(db),
    installationTokens: octokitInstallationTokenMinter(github),
    appCredentials,
    appRegistration: { store: appRegistrations, conversion: githubManifestConversion(githubApiBaseUrl(config.github)) },
    installations: octokitAppInstallations(github),
    repoAccess,
    githubSignIn: {
      store: createGitHubSignInStore(db),
      oauth: githubOAuthWebFlow(githubWebUrl(config.github), githubApiBaseUrl(config.github), (reason) =>
        logger.warn({ event: 'github_sign_in_token_not_revoked', reason }, "the sign-in's GitHub user token was not revoked"),
      ),
      orgs: installationOrgMembership(github),
    },
    github,
  };
}
