import type { OrgMembershipReader } from '../core/accounts/github-sign-in.js';
import { UnavailableError } from '../core/errors.js';
import type { GitHubAppAccess } from './github-access.js';
import { statusOf } from './github-errors.js';

const unavailable = (what: string, error: unknown) =>
  new UnavailableError(`GitHub could not answer ${what} (${statusOf(error) ?? (error as Error).message}); try again.`);

/**
 * Organisation membership through the App (docs/github-app.md, "Sign in with GitHub"): the App's
 * installation on the organisation (`GET /orgs/{org}/installation` as the App; 404 = not installed),
 * then `GET /orgs/{org}/members/{username}` with that installation's token (204 member, 404 not),
 * which needs the organisation permission `members: read`. No App configured: `not_installed`.
 */
export function installationOrgMembership(github: Pick<GitHubAppAccess, 'current'>): OrgMembershipReader {
  return {
    async membership(org, login) {
      const { app } = await github.current();
      if (!app) return 'not_installed';
      let installationId: number;
      try {
        installationId = (await (await app.asApp()).rest.apps.getOrgInstallation({ org })).data.id;
      } catch (error) {
        if (statusOf(error) === 404) return 'not_installed';
        throw unavailable(`which installation the App has on ${org}`, error);
      }
      try {
        const res = await (await app.asInstallation(installationId)).rest.orgs.checkMembershipForUser({ org, username: login });
        return (res.status as number) === 204 ? 'member' : 'not_member';
      } catch (error) {
        if (statusOf(error) === 404) return 'not_member';
        throw unavailable(`whether ${login} is a member of ${org}`, error);
      }
    },
  };
}
