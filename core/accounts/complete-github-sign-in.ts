import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConflictError, ValidationError } from '../errors.js';
import type { AccountStore } from './account-store.js';
import { generateApiKey, hashApiKey } from './api-key.js';
import { admitByOrganisation, GitHubSignInRefused } from './github-org-admission.js';
import {
  GITHUB_KEY_LABEL,
  SIGN_IN_CODE_TTL_MS,
  SIGN_IN_STATE_TTL_MS,
  type GitHubOAuthUser,
  type GitHubSignInPorts,
  type OAuthClient,
} from './github-sign-in.js';
import type { RegistrationPolicy } from './register-user.js';
import type { GitHubLink, User } from './user.js';

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const sha256Url = (text: string) => createHash('sha256').update(text).digest('base64url');

export interface SignInPolicy extends RegistrationPolicy {
  /** SHIPGATE_GITHUB_ALLOWED_ORGS, lower-cased; empty admits every GitHub user. */
  allowedOrgs: readonly string[];
}

/**
 * A started authorization: the single-use state and the PKCE challenge to send to GitHub, and the
 * nonce the starting browser keeps in its cookie (the callback must bring it back).
 */
export interface StartedSignIn {
  state: string;
  codeChallenge: string;
  browserNonce: string;
  expiresAt: Date;
}

/**
 * Starts a sign-in (`linkUserId` null) or a link of GitHub to `linkUserId`'s account: a random state,
 * PKCE verifier and browser nonce, kept server-side (the state and the nonce as their SHA-256) for
 * 10 minutes; the browser only ever carries the state, the S256 challenge (RFC 7636) and, in a
 * cookie, the nonce.
 */
export async function startGitHubSignIn(ports: Pick<GitHubSignInPorts, 'store'>, linkUserId: string | null): Promise<StartedSignIn> {
  const state = randomBytes(32).toString('base64url');
  const codeVerifier = randomBytes(32).toString('base64url');
  const browserNonce = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SIGN_IN_STATE_TTL_MS);
  await ports.store.createState(sha256Hex(state), { codeVerifier, linkUserId, browserNonceSha256: sha256Hex(browserNonce) }, expiresAt);
  return { state, codeChallenge: sha256Url(codeVerifier), browserNonce, expiresAt };
}

export type CompletedSignIn =
  /** Signed in: the one-time code the studio exchanges (POST) for a new key. */
  | { kind: 'signed_in'; user: User; login: string; created: boolean; code: string }
  /** A link seen through on GitHub: the one-time code with which the user who started it finishes it (finishGitHubLink). */
  | { kind: 'link_pending'; userId: string; login: string; code: string };

/** Whether the browser brought the nonce whose SHA-256 the state kept (compared in constant time). */
function sameBrowser(browserNonce: string | undefined, expectedSha256: string): boolean {
  if (!browserNonce) return false;
  const [given, expected] = [Buffer.from(sha256Hex(browserNonce), 'hex'), Buffer.from(expectedSha256, 'hex')];
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * GitHub sent the browser back: takes the state (once), requires the nonce of the browser that
 * started it (its cookie: else a state handed to another browser would sign that browser in, or
 * link its GitHub account to someone else's), exchanges the code for the GitHub user, applies
 * SHIPGATE_GITHUB_ALLOWED_ORGS, then signs in or leaves the link pending. The link is by GitHub's
 * numeric user id, never by e-mail: a known id signs in as its user (login refreshed); an unknown one
 * gets a new user with the default role (the first user ever becomes ADMIN), unless registration is
 * closed; then only an account an ADMIN created, linked by its owner, can sign in with GitHub.
 */
export async function completeGitHubSignIn(
  ports: GitHubSignInPorts,
  policy: SignInPolicy,
  client: OAuthClient,
  input: { code: string; state: string; browserNonce: string | undefined; onLink?: () => void },
): Promise<CompletedSignIn> {
  const taken = await ports.store.takeState(sha256Hex(input.state));
  if (!taken) {
    throw ValidationError.single(['query', 'state'], 'This sign-in link is unknown, already used or expired (10 minutes): start again.');
  }
  if (taken.linkUserId) input.onLink?.();
  if (!sameBrowser(input.browserNonce, taken.browserNonceSha256)) {
    throw new GitHubSignInRefused(
      'browser',
      'This GitHub sign-in was not started in this browser (its sign-in cookie is missing or does not match): nothing was signed in or linked. Start again here.',
    );
  }
  const github = await ports.oauth.userFor(client, input.code, taken.codeVerifier);
  await admitByOrganisation(ports.orgs, policy.allowedOrgs, github.login);
  if (taken.linkUserId) {
    const holder = await ports.store.findLinkedUser(github.id);
    if (holder && holder.id !== taken.linkUserId) throw linkedElsewhere(github);
    // Not linked yet: only the key of the user who started the link finishes it (finishGitHubLink).
    const code = randomBytes(32).toString('base64url');
    const link = { id: github.id, login: github.login };
    await ports.store.createCode(sha256Hex(code), taken.linkUserId, new Date(Date.now() + SIGN_IN_CODE_TTL_MS), link);
    return { kind: 'link_pending', userId: taken.linkUserId, login: github.login, code };
  }
  let user = await ports.store.findLinkedUser(github.id);
  const created = !user;
  if (user) {
    if (!user.active) throw new GitHubSignInRefused('deactivated', 'Account deactivated.');
    await ports.store.link(user.id, { id: github.id, login: github.login });
  } else {
    user = await ports.store.createLinkedUser(
      {
        email: noreplyEmail(github),
        name: github.name?.trim() || github.login,
        role: policy.defaultRole,
        onlyIfFirst: policy.registration === 'closed',
      },
      { id: github.id, login: github.login },
    );
  }
  const code = randomBytes(32).toString('base64url');
  await ports.store.createCode(signInCodeKey(code, input.browserNonce!), user.id, new Date(Date.now() + SIGN_IN_CODE_TTL_MS));
  return { kind: 'signed_in', user, login: github.login, created, code };
}

/**
 * What a sign-in code is stored under: its SHA-256 with the nonce of the browser that finished the
 * callback, so only that browser can trade it (exchangeSignInCode). A code handed to another
 * browser (a link opened by a victim, after its author fetched the code as JSON) signed that
 * browser in as its author: a login CSRF.
 */
const signInCodeKey = (code: string, browserNonce: string) => sha256Hex(`${code}\u0000${browserNonce}`);

/** GitHub sent the browser back without a code (the user cancelled): the state is spent; whether it was a link. */
export async function abandonGitHubSignIn(ports: Pick<GitHubSignInPorts, 'store'>, state: string | undefined): Promise<{ link: boolean }> {
  const taken = state ? await ports.store.takeState(sha256Hex(state)) : null;
  return { link: Boolean(taken?.linkUserId) };
}

/**
 * Trades the one-time code for a NEW key of its user (label `github`): the key is made here, after
 * the browser has left every URL behind, so it never appears in one. A code works once, and only
 * for the browser that finished the callback (`browserNonce`, its sign-in cookie).
 */
export async function exchangeSignInCode(
  ports: Pick<GitHubSignInPorts, 'store'>,
  accounts: Pick<AccountStore, 'findUser' | 'addKey'>,
  code: string,
  browserNonce: string | undefined,
): Promise<{ user: User; apiKey: string }> {
  const userId = browserNonce ? await ports.store.takeCode(signInCodeKey(code, browserNonce)) : null;
  const user = userId ? await accounts.findUser(userId) : null;
  if (!user)
    throw ValidationError.single(
      ['body', 'code'],
      'This sign-in code is unknown, already used, expired (1 minute) or was given to another browser: sign in again.',
    );
  if (!user.active) throw new GitHubSignInRefused('deactivated', 'Account deactivated.');
  const apiKey = generateApiKey();
  await accounts.addKey(user.id, hashApiKey(apiKey), GITHUB_KEY_LABEL);
  return { user, apiKey };
}

/**
 * Finishes a link the callback left pending, for the authenticated `userId` only: a link started by
 * one account never completes for another (docs/github-app.md, "Sign in with GitHub"). The code works
 * once, for 1 minute; the GitHub account is checked again for another holder.
 */
export async function finishGitHubLink(ports: Pick<GitHubSignInPorts, 'store'>, userId: string, code: string): Promise<GitHubLink> {
  const pending = await ports.store.takeLinkCode(sha256Hex(code));
  if (!pending) {
    throw ValidationError.single(['body', 'code'], 'This link code is unknown, already used or expired (1 minute): link GitHub again.');
  }
  if (pending.userId !== userId) {
    throw new GitHubSignInRefused(
      'other_account',
      'This GitHub link was started by another shipgate account: nothing was linked. Link GitHub again from your own account page.',
    );
  }
  const holder = await ports.store.findLinkedUser(pending.github.id);
  if (holder && holder.id !== userId) throw linkedElsewhere(pending.github);
  await ports.store.link(userId, pending.github);
  return pending.github;
}

/**
 * A new GitHub user's e-mail: GitHub's no-reply address for the account (`<id>+<login>@users.noreply.github.com`),
 * unique by GitHub id. Never the e-mail GitHub shows: an address another shipgate account already
 * holds must not be claimed, and sign-in never matches accounts by e-mail.
 */
export function noreplyEmail(github: Pick<GitHubOAuthUser, 'id' | 'login'>): string {
  return `${github.id}+${github.login}@users.noreply.github.com`.toLowerCase();
}

function linkedElsewhere(github: Pick<GitHubOAuthUser, 'login'>): ConflictError {
  return new ConflictError(`GitHub account ${github.login} is already linked to another shipgate user: unlink it there first.`);
}
