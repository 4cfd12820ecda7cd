import { createRemoteJWKSet, customFetch, decodeJwt, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { OidcVerifier } from '../core/accounts/oidc.js';
import { boundedFetch, type Fetch } from '../core/bounded-fetch.js';
import { AuthenticationError, UnavailableError } from '../core/errors.js';

/**
 * The largest discovery document or key set read (docs/operations.md, "Remote answers"): GitHub's
 * are a few kilobytes. They are fetched before a token's signature is checked, for anyone who
 * sends a token naming a configured issuer: an issuer answering an endless body took 14 GB and a
 * minute, and a 200-million-element array crashed the process.
 */
export const OIDC_ANSWER_MAX_BYTES = 1024 * 1024;

export interface OidcVerifierOptions {
  /** Accepted `iss` values, without a trailing slash. */
  issuers: string[];
  audience: string;
  /** Per request to the issuer (discovery document, key set). */
  timeoutMs?: number;
  /** How long a discovered key set location is trusted before the discovery document is read again. */
  discoveryMaxAgeMs?: number;
}

// GitHub signs Actions tokens with RS256; anything else (`none`, HMAC with a public key) is refused.
const ALGORITHMS = ['RS256'];
const CLOCK_TOLERANCE_SECONDS = 30;

const refused = (why: string) => new AuthenticationError(`OIDC token refused: ${why}`);

/** A key set location the issuer may name: http(s), on the issuer's own origin (as GitHub's and GHES's are). */
function keySetUrl(issuer: string, jwksUri: unknown): URL | null {
  if (typeof jwksUri !== 'string' || !URL.canParse(jwksUri)) return null;
  const url = new URL(jwksUri);
  return /^https?:$/.test(url.protocol) && url.origin === new URL(issuer).origin ? url : null;
}

/**
 * The issuer's keys, located through its discovery document (OpenID Connect Discovery 1.0); both
 * read within `timeoutMs` and OIDC_ANSWER_MAX_BYTES, no redirect followed.
 */
async function discoverKeySet(issuer: string, timeoutMs: number): Promise<JWTVerifyGetKey> {
  const bounded: Fetch = boundedFetch(fetch, { timeoutMs, maxBytes: OIDC_ANSWER_MAX_BYTES, what: 'The OIDC issuer' });
  const url = `${issuer}/.well-known/openid-configuration`;
  const response = await bounded(url, { redirect: 'error' });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown } | null;
  const jwks = keySetUrl(issuer, document?.jwks_uri);
  if (document?.issuer !== issuer || !jwks) throw new Error(`${url} does not describe the issuer ${issuer} with a key set of its own`);
  // jose caches the key set, and fetches it again (at most every 30 s) when a token names an unknown key.
  return createRemoteJWKSet(jwks, {
    timeoutDuration: timeoutMs,
    cooldownDuration: 30_000,
    cacheMaxAge: 600_000,
    [customFetch]: (input, init) => bounded(input, { ...init, redirect: 'error' }),
  });
}

function translate(error: unknown, audience: string): Error {
  if (error instanceof errors.JWTExpired) return refused('it has expired ("exp").');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return refused(`the "aud" claim is not ${audience}.`);
    return refused(`the "${error.claim}" claim is invalid (${error.reason}).`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return refused("its signature does not verify with the issuer's keys.");
  if (error instanceof errors.JWKSNoMatchingKey) return refused('the issuer publishes no key it could be signed with ("kid").');
  if (error instanceof errors.JOSEAlgNotAllowed) return refused(`it is not signed with ${ALGORITHMS.join(', ')}.`);
  if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid || error instanceof errors.JOSENotSupported)
    return refused('it is not a well-formed signed JWT.');
  // The key set could not be fetched or read: nothing the caller did wrong, so not a 401.
  return new UnavailableError("The OIDC issuer's signing keys could not be fetched; try again shortly.");
}

/**
 * OIDC token verification with jose: `iss` must be one of `issuers` (checked before any network
 * call), the signature must verify with the key set the issuer's discovery document names
 * (both cached per issuer), `aud` must be `audience`, and `exp`/`nbf`/`iat` must hold.
 */
export function createOidcVerifier({
  issuers,
  audience,
  timeoutMs = 5000,
  discoveryMaxAgeMs = 3_600_000,
}: OidcVerifierOptions): OidcVerifier {
  const keySets = new Map<string, { at: number; keys: Promise<JWTVerifyGetKey> }>();

  function keySetOf(issuer: string): Promise<JWTVerifyGetKey> {
    const cached = keySets.get(issuer);
    if (cached && Date.now() - cached.at < discoveryMaxAgeMs) return cached.keys;
    const keys = discoverKeySet(issuer, timeoutMs);
    keySets.set(issuer, { at: Date.now(), keys });
    // A failed discovery is not remembered: the next request tries again.
    keys.catch(() => keySets.get(issuer)?.keys === keys && keySets.delete(issuer));
    return keys;
  }

  return {
    async verify(token) {
      let issuer: unknown;
      try {
        issuer = decodeJwt(token).iss;
      } catch {
        throw refused('it is not a well-formed JWT.');
      }
      if (typeof issuer !== 'string' || !issuers.includes(issuer))
        throw refused(`its issuer ("iss") is not one of SHIPGATE_OIDC_ISSUERS (${issuers.join(', ')}).`);
      try {
        const keys = await keySetOf(issuer);
        const { payload } = await jwtVerify(token, keys, {
          issuer,
          audience,
          algorithms: ALGORITHMS,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['exp', 'iat'],
        });
        return payload as Record<string, unknown>;
      } catch (error) {
        throw translate(error, audience);
      }
    },
  };
}
