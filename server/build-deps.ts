import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createCertifier } from '../core/certificates/create-certifier.js';
import { createSigner } from '../core/certificates/create-signer.js';
import { createVerifier } from '../core/certificates/create-verifier.js';
import { resourceUris } from '../core/certificates/resource-uris.js';
import { createAccountStore } from '../db/stores/postgres-account-store.js';
import { createExecutionJournal } from '../db/stores/execution-journal.js';
import { createWorkflowStore } from '../db/stores/postgres-workflow-store.js';
import { createExecutionStore } from '../db/stores/postgres-execution-store.js';
import { createMcpServerRegistry } from '../db/stores/postgres-mcp-server-registry.js';
import { createAgentSessionStore } from '../db/stores/postgres-agent-session-store.js';
import { createAgentKeyStore } from '../db/stores/postgres-agent-key-store.js';
import { createSdkMcpUpstreamClient } from '../net/sdk-mcp-upstream-client.js';
import { createPolicyStore } from '../db/stores/policy-store.js';
import { createRateLimiter } from '../db/stores/rate-limiter.js';
import { createReleasePorts } from '../db/stores/postgres-release-ports.js';
import { createDeploymentStore } from '../db/stores/postgres-deployment-store.js';
import { createSigningKeyStore } from '../db/stores/postgres-signing-key-store.js';
import { createOidcVerifier } from '../net/oidc-verifier.js';
import type { Config } from '../core/config.js';
import type { Metrics } from './create-metrics.js';
import type { Deps } from '../api/deps.js';
import { createAppRegistrationStore } from '../db/stores/postgres-app-registration.js';
import { registeredAppCredentialsSource } from '../app/registered-app-credentials.js';
import { githubManifestConversion } from '../app/github-manifest-conversion.js';
import { githubAccessFromConfig, githubApiBaseUrl } from '../app/github-access-from-config.js';
import { octokitAppInstallations } from '../app/octokit-app-installations.js';
import type { GitHubAppAccess } from '../app/github-access.js';
import { loadSecretKey } from './load-secret-key.js';
import { createRepoAccess, repoAccessModeOf } from '../core/accounts/repo-access.js';
import { cachedRepoPermissions } from '../core/accounts/cached-repo-permissions.js';
import { installationPermissionReader } from '../app/installation-permission-reader.js';
import { ephemeralSigningKeys, type SigningKeys } from './load-signing-key.js';
import { createGitHubSignInStore } from '../db/stores/postgres-github-sign-in-store.js';
import { githubOAuthWebFlow } from '../app/github-oauth-web-flow.js';
import { installationOrgMembership } from '../app/installation-org-membership.js';
import { githubWebUrl } from '../core/github/app-manifest.js';
import { threadPoolEvidenceParser, type PooledEvidenceParser } from './thread-pool-evidence-parser.js';
import { threadPoolGateFileReader, type PooledGateFileReader } from './thread-pool-gate-file-reader.js';

/** What the process wires: the routes' Deps, and GitHub access for the webhook and the worker. */
export interface ServiceDeps extends Deps {
  /** Built here once for `serve` and `worker` alike: one Probot per credential, one installation-token cache. */
  github: GitHubAppAccess;
  /** Its threads start on the first upload; whoever built the deps closes it (serve's stop, a test's close). */
  evidenceParser: PooledEvidenceParser;
  /** Reads `.github/shipgate.yml` for the worker's GitHub jobs; its thread starts on the first read, and is closed like the parser's. */
  gateFiles: PooledGateFileReader;
}

/**
 * Wires the stores and services every route and job uses. Tests call it with their own database.
 * `signing` comes from loadSigningKey (async, so the composition root runs it first); without
 * it certificates are signed with a throwaway key that nothing else can verify.
 */
export function buildDeps(
  config: Config,
  db: Knex,
  logger: Logger,
  metrics: Metrics,
  signing: SigningKeys = ephemeralSigningKeys(),
): ServiceDeps {
  const signer = createSigner(signing.privateKey);
  const verifier = createVerifier(signing.publicKeys);
  const secretKey = loadSecretKey(config);
  const policies = createPolicyStore(db);
  // The App's credentials in force: the environment's, else the studio's registration (re-checked every few seconds).
  const appRegistrations = createAppRegistrationStore(db, secretKey, config.github.deliveryRecoverySeconds);
  const appCredentials = registeredAppCredentialsSource(config.github, appRegistrations);
  const github = githubAccessFromConfig(config, logger, appCredentials);
  if (github.whyNot) logger.info({ event: 'github_posting_disabled' }, github.whyNot);
  const uris = resourceUris(config.configuredPublicUrl);
  const repoAccess = createRepoAccess({
    mode: async () => repoAccessModeOf(config.repoAccess, (await appCredentials.current()) !== null),
    reader: cachedRepoPermissions(installationPermissionReader(github)),
  });
  const parseThreads = threadPoolEvidenceParser({ deadlineSeconds: config.parseDeadlineSeconds });
  return {
    config,
    db,
    logger,
    metrics: metrics.registry,
    accounts: createAccountStore(db),
    rateLimiter: createRateLimiter(db),
    keys: createSigningKeyStore(db),
    signer,
    verifier,
    certifier: createCertifier(signer, uris),
    policies,
    release: createReleasePorts(db, signer, verifier, uris, config.decisionCacheCommits),
    evidenceParser: parseThreads,
    parseLargeJsonBody: parseThreads.parseJsonBody,
    gateFiles: threadPoolGateFileReader(),
    deployments: createDeploymentStore(db),
    executions: createExecutionStore(db, secretKey),
    journal: createExecutionJournal(db, secretKey, policies),
    oidc: config.oidc.owners.length > 0 ? createOidcVerifier(config.oidc) : undefined,
    workflows: createWorkflowStore(db, secretKey),
    mcpServers: createMcpServerRegistry(db, secretKey),
    agentSessions: createAgentSessionStore(db, secretKey),
    agentKeys: createAgentKeyStore(db),
    mcpUpstreamClient: createSdkMcpUpstreamClient(),
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
