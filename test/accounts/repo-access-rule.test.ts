import { jest } from '@jest/globals';
import { cachedRepoPermissions } from '../../core/accounts/cached-repo-permissions.js';
import {
  createRepoAccess,
  judgeRepoPermission,
  repoAccessModeOf,
  repoAccessPath,
  type RepoAccessMode,
  type RepoPermissionFact,
} from '../../core/accounts/repo-access.js';
import type { Role } from '../../core/accounts/roles.js';
import type { Principal } from '../../core/accounts/user.js';
import { ForbiddenError, NotFoundError, UnavailableError } from '../../core/errors.js';

const principal = (role: Role, login?: string): Principal => ({
  user: { id: 'u', email: 'u@example.com', name: 'u', role, active: true, created_at: '2024-01-01T00:00:00Z' },
  keyHash: 'h',
  github: login ? { id: 1, login } : undefined,
});

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

  it('ADMIN and roles mode take the role alone; an unlinked user only under github-required needs a link', () => {
    const kinds = (mode: RepoAccessMode) =>
      [principal('ADMIN', 'a'), principal('OPERATOR', 'o'), principal('OPERATOR')].map((p) => repoAccessPath(mode, p).kind);
    expect(kinds('roles')).toEqual(['role_only', 'role_only', 'role_only']);
    expect(kinds('github')).toEqual(['role_only', 'github', 'role_only']);
    expect(kinds('github-required')).toEqual(['role_only', 'github', 'link_required']);
    expect(repoAccessModeOf(undefined, true)).toBe('github');
    expect(repoAccessModeOf(undefined, false)).toBe('roles');
    expect(repoAccessModeOf('roles', true)).toBe('roles');
  });

  it('a GitHub failure is a 503, never an allow', async () => {
    const access = createRepoAccess({
      mode: async () => 'github',
      reader: { permissionOf: () => Promise.reject(new Error('socket hang up')) },
    });
    await expect(access.require(principal('VIEWER', 'v'), 'acme/api', 'read')).rejects.toBeInstanceOf(UnavailableError);
  });

  it('lists keep the readable repositories; under roles nothing is asked', async () => {
    const reader = { permissionOf: jest.fn(async (repo: string) => (repo === 'acme/api' ? 'read' : 'none') as RepoPermissionFact) };
    const access = createRepoAccess({ mode: async () => 'github', reader });
    expect(await access.readableAmong(principal('VIEWER', 'v'), async () => ['acme/api', 'acme/secret'])).toEqual(['acme/api']);
    const roles = createRepoAccess({ mode: async () => 'roles', reader });
    const candidates = jest.fn(async () => ['acme/api']);
    expect(await roles.readableAmong(principal('VIEWER', 'v'), candidates)).toBeUndefined();
    expect(candidates).not.toHaveBeenCalled();
  });
});

describe('the permission cache', () => {
  it('shares one lookup between concurrent misses, keeps it five minutes, and forgets failures', async () => {
    let clock = 0;
    let fail = false;
    const calls: string[] = [];
    const cached = cachedRepoPermissions(
      {
        async permissionOf(repo, login) {
          calls.push(`${login}@${repo}`);
          await new Promise((r) => setTimeout(r, 5));
          if (fail) throw new Error('502');
          return 'write';
        },
      },
      { now: () => clock },
    );
    await Promise.all(Array.from({ length: 50 }, () => cached.permissionOf('acme/api', 'Mona')));
    expect(await cached.permissionOf('ACME/api', 'mona')).toBe('write');
    expect(calls).toHaveLength(1);
    clock = 5 * 60 * 1000 - 1;
    await cached.permissionOf('acme/api', 'mona');
    expect(calls).toHaveLength(1);
    clock = 5 * 60 * 1000;
    fail = true;
    await expect(cached.permissionOf('acme/api', 'mona')).rejects.toThrow('502');
    fail = false;
    expect(await cached.permissionOf('acme/api', 'mona')).toBe('write');
    expect(calls).toHaveLength(3);
  });
});
