import { ForbiddenError } from '../errors.js';
import type { OrgMembershipReader } from './github-sign-in.js';

/** A refused GitHub sign-in, with the short reason the studio shows a message for (docs/api.md, "Sign in with GitHub"). */
export class GitHubSignInRefused extends ForbiddenError {
  constructor(
    readonly reason: 'org' | 'org_unverifiable' | 'closed' | 'deactivated' | 'browser' | 'other_account',
    message: string,
  ) {
    super(message);
  }
}

/** An unknown GitHub user while SHIPGATE_REGISTRATION=closed (the store throws it under its registration lock). */
export function registrationClosedForGitHub(): GitHubSignInRefused {
  return new GitHubSignInRefused(
    'closed',
    'Registration is closed and this GitHub account is not linked to a shipgate user: an ADMIN must create your account; ' +
      'sign in with its password once and link GitHub on the account page.',
  );
}

/**
 * SHIPGATE_GITHUB_ALLOWED_ORGS (docs/github-app.md, "Sign in with GitHub"): with none listed every
 * GitHub user is admitted; otherwise the user must be a member of at least one listed organisation,
 * as the App's installation on it answers. An organisation the App is not installed on cannot be
 * asked: when no listed organisation admits the user and one of them could not be asked, the
 * refusal says so (an operator's fix), rather than calling the user a non-member.
 */
export async function admitByOrganisation(orgs: OrgMembershipReader, allowedOrgs: readonly string[], login: string): Promise<void> {
  if (allowedOrgs.length === 0) return;
  const unverifiable: string[] = [];
  for (const org of allowedOrgs) {
    const membership = await orgs.membership(org, login);
    if (membership === 'member') return;
    if (membership === 'not_installed') unverifiable.push(org);
  }
  if (unverifiable.length > 0) {
    throw new GitHubSignInRefused(
      'org_unverifiable',
      `Cannot check membership of ${unverifiable.join(', ')}: the GitHub App is not installed on ${unverifiable.length > 1 ? 'these organisations' : 'that organisation'} ` +
        '(or no App is configured). An ADMIN must install it there (with the organisation permission members: read).',
    );
  }
  throw new GitHubSignInRefused(
    'org',
    `GitHub user ${login} is not a member of ${allowedOrgs.length > 1 ? 'any of ' : ''}${allowedOrgs.join(', ')}: only members may sign in here.`,
  );
}
