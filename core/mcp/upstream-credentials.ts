import type { InstallationTokenMinter, MintedToken, ScopedInstallationToken } from '../github/installation-token-minter.js';
import type { McpUpstream } from './mcp-server-registry.js';

/** A token is minted again this long before GitHub's `expires_at`, so no request goes out with one about to lapse. */
export const TOKEN_REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;

interface Held {
  /** The permissions the token was minted for: a registration changed since means a new token. */
  identity: string;
  token: ScopedInstallationToken | null;
  minting: Promise<MintedToken> | null;
}

/**
 * The least-privilege credentials of ONE MCP session's upstreams (docs/mcp-gateway.md,
 * "Least-privilege upstream credentials"): for an upstream registered with `auth.github_app`, an
 * installation token limited to the session's repository and the registration's permissions,
 * minted at first use, kept, and minted again once within TOKEN_REFRESH_BEFORE_EXPIRY_MS of its
 * expiry (asked for on every request to the upstream, so a long connection never sends a lapsed
 * one). A refusal is not kept: the next call asks GitHub again. Every token minted is remembered
 * for the session's life (`minted`), so that the upstream client takes it out of anything any of the
 * session's upstreams sends back (McpUpstreamClient.connect).
 */
export class UpstreamCredentials {
  private readonly held = new Map<string, Held>();
  /** Every token minted for the session, in the order minted. */
  private readonly tokens: string[] = [];

  constructor(
    private readonly minter: InstallationTokenMinter,
    /** The session's repository (`owner/repo`); null: no token can be limited to it. */
    private readonly repoRoot: string | null,
    private readonly now: () => number = Date.now,
  ) {}

  /** The token to send to `upstream` now, or why there is none (an upstream without `auth.github_app` needs none: null). */
  async tokenFor(upstream: Pick<McpUpstream, 'name' | 'auth'>): Promise<MintedToken | null> {
    const permissions = upstream.auth?.github_app?.permissions;
    if (!permissions) return null;
    if (!this.repoRoot) return { refused: 'this agent session names no repository to limit a token to' };
    const identity = JSON.stringify(permissions);
    let held = this.held.get(upstream.name);
    if (!held || held.identity !== identity) {
      held = { identity, token: null, minting: null };
      this.held.set(upstream.name, held);
    }
    if (held.token && Date.parse(held.token.expires_at) - this.now() > TOKEN_REFRESH_BEFORE_EXPIRY_MS) return { token: held.token };
    const state = held;
    state.minting ??= this.minter
      .mint(this.repoRoot, permissions)
      .then((minted) => {
        if ('token' in minted) {
          state.token = minted.token;
          if (!this.tokens.includes(minted.token.token)) this.tokens.push(minted.token.token);
        }
        return minted;
      })
      .finally(() => (state.minting = null));
    return state.minting;
  }

  /** Every token minted for this session so far (the same array, grown as tokens are minted). */
  minted(): readonly string[] {
    return this.tokens;
  }
}
