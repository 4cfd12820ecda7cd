import type { Role } from '../../../core/accounts/roles.js';
import { startFakeGitHub, type FakeGitHub } from '../../fakes/fake-github-server.js';
import { appEnv, appPrivateKey } from '../../support/github-deliveries.js';
import { sha } from '../../support/release-api.js';
import { serviceAccount } from '../../support/service-account.js';
import { createTestApp, type TestApp, type TestUser } from '../../support/test-app.js';

export interface RepoAccessStack {
  gh: FakeGitHub;
  t: TestApp;
  /** A user of `role` whose account is linked to the GitHub login `login` (a row in github_identities, as sign-in makes). */
  linked(role: Role, login: string): Promise<TestUser>;
  /** A user of `role` an ADMIN made a service account: judged by role alone. */
  service(role: Role): Promise<TestUser>;
  /** How many times shipgate asked the fake GitHub for `login`'s permission on `repo`. */
  lookups(repo: string, login: string): number;
}

/**
 * Links `user` to the GitHub account `login` directly in the database (the sign-in flow is tested
 * elsewhere); the fake GitHub knows the account by its id. Returns that id.
 */
export async function linkGitHub(t: TestApp, gh: FakeGitHub, user: TestUser, login: string): Promise<number> {
  const account = gh.oauth.user(login);
  await t.database.db('github_identities').insert({ user_id: user.id, github_user_id: String(account.id), login });
  return account.id;
}

/**
 * The file's shipgate as a GitHub App installed on acme/api and acme/secret of a fake GitHub,
 * with SHIPGATE_REPO_ACCESS=`mode` (unset: the default), started before the file's tests.
 */
export function useRepoAccessStack(mode: string | undefined): RepoAccessStack {
  const stack = {
    async linked(role: Role, login: string) {
      const user = await stack.t.user(role);
      await linkGitHub(stack.t, stack.gh, user, login);
      return user;
    },
    service: (role: Role) => serviceAccount(stack.t, role),
    lookups: (repo: string, login: string) =>
      stack.gh.requests.filter((r) => r.method === 'GET' && r.path === `/repos/${repo}/collaborators/${login}/permission`).length,
  } as RepoAccessStack;
  beforeAll(async () => {
    stack.gh = await startFakeGitHub();
    stack.gh.app.installations.set('acme/api', 501);
    stack.gh.app.installations.set('acme/secret', 502);
    const env = appEnv(stack.gh, 'repo-access-secret', appPrivateKey());
    stack.t = await createTestApp(mode ? { ...env, SHIPGATE_REPO_ACCESS: mode } : env);
  });
  afterAll(async () => {
    await stack.t.close();
    await stack.gh.close();
  });
  return stack;
}

/** A passed evidence upload for `repo` at the commit named by `label`. */
export function evidenceFor(repo: string, label: string) {
  return {
    repo_root: repo,
    commit_sha: sha(label),
    name: 'unit-tests',
    kind: 'scan',
    status: 'passed',
    produced_at: new Date().toISOString(),
  };
}
