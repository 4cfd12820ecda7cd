/**
 * How failed logins slow an attacker without locking out the account's owner (docs/api.md,
 * "Logging in"; docs/operations.md, "Security"). Failures are counted per client (an IPv4
 * address, or an IPv6 /64: loginClientOf) over the last day, and only that client waits: after
 * `freePerAccount` failures on one e-mail, or `freePerClient` on any e-mails, each further
 * attempt from it must wait twice as long after its last failure as the one before, up to
 * `maxDelaySeconds`. Nothing is counted per account across clients, so no stranger can make the
 * owner wait; a correct password from a waiting client is refused like a wrong one, so the
 * delay cannot be used to test guesses.
 */
export const LOGIN_THROTTLE = {
  windowSeconds: 24 * 60 * 60,
  freePerAccount: 5,
  freePerClient: 30,
  maxDelaySeconds: 15 * 60,
} as const;

/** Failed logins of one client in the window, and the seconds since the newest one (0 when none). */
export interface LoginFailureTally {
  count: number;
  sinceLastSeconds: number;
}

export interface LoginFailureCounts {
  /** This client's failures on this e-mail. */
  account: LoginFailureTally;
  /** This client's failures on any e-mail, this one included. */
  client: LoginFailureTally;
}

function waitSeconds({ count, sinceLastSeconds }: LoginFailureTally, free: number): number {
  if (count < free) return 0;
  const delay = Math.min(LOGIN_THROTTLE.maxDelaySeconds, 2 ** (count - free));
  return delay - sinceLastSeconds;
}

/** Whole seconds this client must wait before it may try again (Retry-After); 0 when it may now. */
export function loginRetryAfter(counts: LoginFailureCounts): number {
  const wait = Math.max(
    waitSeconds(counts.account, LOGIN_THROTTLE.freePerAccount),
    waitSeconds(counts.client, LOGIN_THROTTLE.freePerClient),
  );
  return wait > 0 ? Math.ceil(wait) : 0;
}
