import { jest } from '@jest/globals';
import { cachedRepoPermissions } from '../../core/accounts/cached-repo-permissions.js';
import {
  createRepoAccess,
  judgeRepoPermission,
  repoAccessModeOf,
  repoAccessPath,
  type RepoAccessMode,
  type RepoPermissionFact,
  type RepoVisibilityFact,
} from '../../core/accounts/repo-access.js';
import type { Role } from '../../core/accounts/roles.js';
import type { Principal } from '../../core/accounts/user.js';
import { ForbiddenError, NotFoundError, UnavailableError } from '../../core/errors.js';

const principal = (role: Role, login?: string, facts: { service_account?: boolean; githubUserId?: number } = {}): Principal => ({
  user: {
    id: 'u',
    email: 'u@example.com',
    name: 'u',
    role,
    active: true,
    created_at: '2024-01-01T00:00:00Z',
    service_account: facts.service_account ?? false,
  },
  keyHash: 'h',
  github: login ? { id: 1, login } : undefined,
  githubUserId: facts.githubUserId ?? (login ? 1 : undefined),
});

/** A reader that must not be asked about visibility. */
const noVisibility = { visibilityOf: () => Promise.reject(new Error('not asked')) };

// The rule of docs/api.md, "Repository access", without the server.
describe('repository access rule', () => {
  it('maps each GitHub permission to what it allows: 404 below read, 403 below the need', () => {
    const outcome = (need: 'read' | 'write' | 'maintain', permission: RepoPermissionFact) => {
      try {
        judgeRepoPermission('acme/api', need, permission);
        return 'ok';
      } catch (error) {
        return error instanceof NotFoundError ? 404 : error instanceof ForbiddenError ? 403 : 'other';
      }
    };
    const table = (['none', 'not_installed', 'read', 'triage', 'write', 'maintain', 'admin'] as const).map((p) => [
      p,
      outcome('read', p),
      outcome('write', p),
      outcome('maintain', p),
    ]);
    expect(table).toEqual([
      ['none', 404, 404, 404],
      ['not_installed', 404, 404, 404],
      ['read', 'ok', 403, 403],
      ['triage', 'ok', 403, 403],
      ['write', 'ok', 'ok', 403],
      ['maintain', 'ok', 'ok', 'ok'],
      ['admin', 'ok', 'ok', 'ok'],
    ]);
  });

  it('ADMIN, roles mode and service accounts take the role alone; one ever linked is checked against GitHub; one never linked reads public repositories', () => {
    const kinds = (mode: RepoAccessMode) =>
      [
        principal('ADMIN', 'a'),
        principal('OPERATOR', 'o'),
        principal('OPERATOR'),
        principal('OPERATOR', undefined, { githubUserId: 77 }),
        principal('OPERATOR', undefined, { service_account: true }),
      ].map((p) => repoAccessPath(mode, p).kind);
    expect(kinds('roles')).toEqual(['role_only', 'role_only', 'role_only', 'role_only', 'role_only']);
    expect(kinds('github')).toEqual(['role_only', 'github', 'public_only', 'github', 'role_only']);
    expect(kinds('github-required')).toEqual(['role_only', 'github', 'link_required', 'github', 'role_only']);
    expect(repoAccessPath('github', principal('OPERATOR', undefined, { githubUserId: 77 }))).toEqual({ kind: 'github', githubUserId: 77 });
    expect(repoAccessModeOf(undefined, true)).toBe('github');
    expect(repoAccessModeOf(undefined, false)).toBe('roles');
    expect(repoAccessModeOf('roles', true)).toBe('roles');
  });

  it('a GitHub failure is a 503, never an allow', async () => {
    const access = createRepoAccess({
      mode: async () => 'github',
      reader: { permissionOf: () => Promise.reject(new Error('socket hang up')), ...noVisibility },
    });
    await expect(access.require(principal('VIEWER', 'v'), 'acme/api', 'read')).rejects.toBeInstanceOf(UnavailableError);
  });

  it('lists keep the readable repositories; under roles nothing is asked', async () => {
    const reader = {
      permissionOf: jest.fn(async (repo: string) => (repo === 'acme/api' ? 'read' : 'none') as RepoPermissionFact),
      ...noVisibility,
    };
    const access = createRepoAccess({ mode: async () => 'github', reader });
    expect(await access.readableAmong(principal('VIEWER', 'v'), async () => ['acme/api', 'acme/secret'])).toEqual(['acme/api']);
    const roles = createRepoAccess({ mode: async () => 'roles', reader });
    const candidates = jest.fn(async () => ['acme/api']);
    expect(await roles.readableAmong(principal('VIEWER', 'v'), candidates)).toBeUndefined();
    expect(candidates).not.toHaveBeenCalled();
  });

  it('an account never linked reads public repositories only, and writes to none', async () => {
    const visibility: Record<string, RepoVisibilityFact> = { 'acme/open': 'public', 'acme/api': 'private', 'other/x': 'not_installed' };
    const access = createRepoAccess({
      mode: async () => 'github',
      reader: { permissionOf: () => Promise.reject(new Error('not asked')), visibilityOf: async (repo) => visibility[repo] },
    });
    const stranger = principal('OPERATOR');
    expect(await access.readableAmong(stranger, async () => Object.keys(visibility))).toEqual(['acme/open']);
    await expect(access.require(stranger, 'acme/open', 'read')).resolves.toBeUndefined();
    await expect(access.require(stranger, 'acme/open', 'write')).rejects.toThrow(/no GitHub link.*service account/);
    await expect(access.require(stranger, 'acme/api', 'read')).rejects.toBeInstanceOf(NotFoundError);
    await expect(access.require(stranger, 'other/x', 'read')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('the permission cache', () => {
  it('shares one lookup between concurrent misses, keeps it five minutes, and forgets failures', async () => {
    let clock = 0;
    let fail = false;
    const calls: string[] = [];
    const cached = cachedRepoPermissions(
      {
        async permissionOf(repo, githubUserId) {
          calls.push(`${githubUserId}@${repo}`);
          await new Promise((r) => setTimeout(r, 5));
          if (fail) throw new Error('502');
          return 'write';
        },
        ...noVisibility,
      },
      { now: () => clock },
    );
    await Promise.all(Array.from({ length: 50 }, () => cached.permissionOf('acme/api', 583231)));
    expect(await cached.permissionOf('ACME/api', 583231)).toBe('write');
    expect(calls).toHaveLength(1);
    clock = 5 * 60 * 1000 - 1;
    await cached.permissionOf('acme/api', 583231);
    expect(calls).toHaveLength(1);
    clock = 5 * 60 * 1000;
    fail = true;
    await expect(cached.permissionOf('acme/api', 583231)).rejects.toThrow('502');
    fail = false;
    expect(await cached.permissionOf('acme/api', 583231)).toBe('write');
    expect(calls).toHaveLength(3);
  });
});
