import type { AppInstallation, AppInstallations } from '../core/github/app-installations.js';
import { UnavailableError } from '../core/errors.js';
import { normalizeRepoRoot } from '../core/release/github-identifiers.js';
import type { GitHubAppAccess } from './github-access.js';
import { githubFailureOf } from './github-errors.js';

const NOT_CONFIGURED =
  "The GitHub App is not configured: register it on the studio's GitHub page, or set APP_ID with PRIVATE_KEY (docs/github-app.md).";

/** GitHub's words for a failed read, without headers, tokens or the request's body. */
function unavailable(what: string, error: unknown): UnavailableError {
  return new UnavailableError(`GitHub could not be read (${what}): ${githubFailureOf(error)}.`);
}

async function read<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw unavailable(what, error);
  }
}

/**
 * The App's installations over octokit, as the App in force at each call, so credentials
 * registered (or replaced) while the process runs are the ones used (ARCHITECTURE.md, "GitHub App").
 */
export function octokitAppInstallations(access: Pick<GitHubAppAccess, 'current'>): AppInstallations {
  return {
    async list() {
      const { app: client } = await access.current();
      if (!client) return { configured: false, reason: NOT_CONFIGURED };
      const octokit = await read('as the App', () => client.asApp());
      const found = await read('GET /app/installations', () => octokit.paginate(octokit.rest.apps.listInstallations, { per_page: 100 }));
      const installations: AppInstallation[] = [];
      for (const installation of found) {
        const account = installation.account as { login?: string; slug?: string; type?: string } | null;
        const entry: AppInstallation = {
          id: installation.id,
          account: { login: account?.login ?? account?.slug ?? '', type: account?.type ?? installation.target_type },
          repository_selection: installation.repository_selection,
          suspended_at: installation.suspended_at ?? null,
          repositories: [],
          repositories_unavailable: null,
        };
        if (entry.suspended_at) {
          entry.repositories_unavailable =
            'Suspended: GitHub gives a suspended installation no token, so its repositories cannot be listed.';
        } else {
          const token = await read(`installation ${installation.id}'s token`, () => client.asInstallation(installation.id));
          const repos = await read(`GET /installation/repositories of installation ${installation.id}`, () =>
            token.paginate(token.rest.apps.listReposAccessibleToInstallation, { per_page: 100 }),
          );
          entry.repositories = repos.map((repo) => normalizeRepoRoot(repo.full_name)).filter((root): root is string => root !== null);
          entry.repositories.sort();
        }
        installations.push(entry);
      }
      return { configured: true, app_id: client.appId, installations };
    },
  };
}
