import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { sendJson, startHttpServer } from './fake-http.js';

export interface WorkflowClaims extends JWTPayload {
  repository: string;
  repository_owner: string;
  workflow_ref: string;
  run_id: string;
  run_attempt: string;
  actor: string;
  event_name: string;
}

export interface SignOptions {
  /** Sign with a key the issuer does not publish (a forged token). */
  foreignKey?: boolean;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
}

export interface FakeOidcIssuer {
  /** The issuer (`iss`), also the base of its discovery document. */
  url: string;
  /** What the runner puts in ACTIONS_ID_TOKEN_REQUEST_URL and ACTIONS_ID_TOKEN_REQUEST_TOKEN. */
  runnerEnv: { ACTIONS_ID_TOKEN_REQUEST_URL: string; ACTIONS_ID_TOKEN_REQUEST_TOKEN: string };
  /** A token as GitHub would issue it to a job of `repository` (claims may be overridden). */
  sign(repository: string, overrides?: Partial<WorkflowClaims>, options?: SignOptions): Promise<string>;
  /** Every token handed out through the runner protocol, newest last. */
  issued: string[];
  /** Claims the runner protocol's tokens carry over the defaults (a job's `sha`, `ref`, `event_name`...); set before running. */
  runnerClaims: Partial<WorkflowClaims>;
  /** Requests to the discovery document and to the key set. */
  hits: { discovery: number; jwks: number };
  close(): Promise<void>;
}

/** Claims of a GitHub Actions OIDC token (names as documented by GitHub). */
function claimsFor(issuer: string, repository: string, audience: string): WorkflowClaims {
  const [owner] = repository.split('/');
  return {
    iss: issuer,
    aud: audience,
    sub: `repo:${repository}:ref:refs/heads/main`,
    repository,
    repository_owner: owner,
    repository_id: '123456',
    repository_owner_id: '654321',
    ref: 'refs/heads/main',
    sha: 'f'.repeat(40),
    workflow_ref: `${repository}/.github/workflows/ci.yml@refs/heads/main`,
    job_workflow_ref: `${repository}/.github/workflows/ci.yml@refs/heads/main`,
    run_id: '9876543210',
    run_attempt: '1',
    actor: 'octocat',
    event_name: 'push',
  };
}

/**
 * A GitHub Actions OIDC issuer on loopback: its discovery document, its JWK set (RS256), and the
 * runner's token endpoint (`GET <ACTIONS_ID_TOKEN_REQUEST_URL>&audience=<aud>` with the request
 * token as bearer -> `{"value": "<jwt>"}`) issuing tokens for `repository`.
 */
export async function startFakeOidcIssuer(repository = 'acme/widgets'): Promise<FakeOidcIssuer> {
  const kid = randomUUID();
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const requestToken = `runner-request-${randomUUID()}`;
  const issued: string[] = [];
  const hits = { discovery: 0, jwks: 0 };
  let issuer = '';

  async function sign(repo: string, overrides: Partial<WorkflowClaims> = {}, options: SignOptions = {}): Promise<string> {
    const key: CryptoKey = options.foreignKey ? foreign.privateKey : privateKey;
    const now = Math.floor(Date.now() / 1000);
    const claims = { ...claimsFor(issuer, repo, 'shipgate'), ...overrides };
    const expiresIn = options.expiresIn ?? 300;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuedAt(expiresIn < 0 ? now + expiresIn - 600 : now)
      .setNotBefore(expiresIn < 0 ? now + expiresIn - 600 : now - 5)
      .setExpirationTime(now + expiresIn)
      .setJti(randomUUID())
      .sign(key);
  }

  const server = await startHttpServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === '/.well-known/openid-configuration') {
      hits.discovery += 1;
      return sendJson(res, 200, {
        issuer,
        jwks_uri: `${issuer}/.well-known/jwks`,
        subject_types_supported: ['public', 'pairwise'],
        response_types_supported: ['id_token'],
        claims_supported: ['sub', 'aud', 'exp', 'iat', 'iss', 'jti', 'nbf', 'ref', 'repository', 'repository_owner', 'run_id', 'actor'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid'],
      });
    }
    if (url.pathname === '/.well-known/jwks') {
      hits.jwks += 1;
      return sendJson(res, 200, { keys: [publicJwk] });
    }
    if (url.pathname === '/runner/idtoken') {
      if (req.headers.authorization !== `Bearer ${requestToken}`) return sendJson(res, 401, { message: 'Bad request token' });
      const token = await sign(repository, { ...fake.runnerClaims, aud: url.searchParams.get('audience') ?? issuer });
      issued.push(token);
      return sendJson(res, 200, { count: 1, value: token });
    }
    sendJson(res, 404, { message: 'Not Found' });
  });
  issuer = server.url;
  const fake: FakeOidcIssuer = {
    url: issuer,
    runnerEnv: {
      ACTIONS_ID_TOKEN_REQUEST_URL: `${issuer}/runner/idtoken?api-version=2.0`,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: requestToken,
    },
    sign,
    issued,
    runnerClaims: {},
    hits,
    close: server.close,
  };
  return fake;
}
