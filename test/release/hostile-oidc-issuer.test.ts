import type { ServerResponse } from 'node:http';
import { generateKeyPair, SignJWT } from 'jose';
import { AuthenticationError, UnavailableError } from '../../core/errors.js';
import { createOidcVerifier, OIDC_ANSWER_MAX_BYTES } from '../../net/oidc-verifier.js';
import { sendJson, startHttpServer, type FakeHttpServer } from '../fakes/fake-http.js';

// A black-box probe's finding: the discovery document and key set are fetched before a token's
// signature is checked, for anyone who sends a token naming a configured issuer, and were read
// without bound: an endless discovery body took 14 GB and a minute (its timeout never fired), a
// 200-million-element array crashed the process, and a key set anywhere (data:, shipgate's own
// /metrics) was fetched. Each is refused now within the timeout, reading at most 1 MiB.

type Mode = (res: ServerResponse, issuer: string, other: string) => void;

/** Streams `chunk` until the client goes away. */
function endless(res: ServerResponse, chunk: string) {
  res.writeHead(200, { 'content-type': 'application/json' });
  const write = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', write);
  };
  res.write('[');
  write();
}

const discovery = (issuer: string, jwks: string) => ({ issuer, jwks_uri: jwks });
const MODES: Record<string, { discovery: Mode; jwks?: Mode }> = {
  'an endless discovery document': { discovery: (res) => endless(res, '1,'.repeat(8192)) },
  // Read whole, it would lead to a key set that verifies nothing: a 401, not a 503.
  'a discovery document over 1 MiB, said by its length': {
    discovery: (res, issuer) => sendJson(res, 200, { ...discovery(issuer, `${issuer}/jwks`), pad: 'x'.repeat(OIDC_ANSWER_MAX_BYTES) }),
    jwks: (res) => sendJson(res, 200, { keys: [] }),
  },
  'a key set on another origin': { discovery: (res, issuer, other) => sendJson(res, 200, discovery(issuer, `${other}/jwks`)) },
  'a key set in a data: URL': { discovery: (res, issuer) => sendJson(res, 200, discovery(issuer, 'data:application/json,{"keys":[]}')) },
  'an endless key set': {
    discovery: (res, issuer) => sendJson(res, 200, discovery(issuer, `${issuer}/jwks`)),
    jwks: (res) => endless(res, '{"kty":"oct","k":"AA"},'.repeat(512)),
  },
};

let other: FakeHttpServer;
let otherHits = 0;
beforeAll(async () => {
  other = await startHttpServer(async (_req, res) => {
    otherHits++;
    sendJson(res, 200, { keys: [] });
  });
});
afterAll(() => other.close());

describe('an OIDC issuer that misbehaves', () => {
  it.each(Object.keys(MODES))('%s: 503 within the timeout, no key fetched elsewhere', async (name) => {
    const mode = MODES[name];
    const server = await startHttpServer(async (req, res) => {
      if (req.url === '/.well-known/openid-configuration') mode.discovery(res, server.url, other.url);
      else if (req.url === '/jwks' && mode.jwks) mode.jwks(res, server.url, other.url);
      else sendJson(res, 404, {});
    });
    try {
      const verifier = createOidcVerifier({ issuers: [server.url], audience: 'shipgate', timeoutMs: 1_500 });
      const { privateKey } = await generateKeyPair('RS256');
      const token = await new SignJWT({ repository: 'acme/api' })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(server.url)
        .setAudience('shipgate')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);
      const started = performance.now();
      const error = await verifier.verify(token).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnavailableError);
      expect(error).not.toBeInstanceOf(AuthenticationError);
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(otherHits).toBe(0);
    } finally {
      await server.close();
    }
  });
});
