import { repoPermissionOf } from '../../core/github/repo-permission.js';
import { decide, insertExecution } from '../support/release-api.js';
import { useAgentPullRequests } from './support/agent-pull-requests.js';

const { stack, nextSha, openPullRequest, buildPassed, review } = useAgentPullRequests(94);

describe('reviewer permission, from GitHub’s permission and role_name', () => {
  beforeAll(() => {
    // As GitHub answers: a maintainer's `permission` is write, triage's read; custom roles report their base level.
    stack.gh.app.permissions.set('mona', 'maintain');
    stack.gh.app.permissions.set('tim', 'triage');
    stack.gh.app.permissions.set('sec', { role_name: 'security-reviewer', permission: 'write' });
    stack.gh.app.permissions.set('docs', { role_name: 'docs-triager', permission: 'read' });
  });

  it('a maintainer’s and a write-based custom role’s approvals count; triage and a read-based custom role do not', async () => {
    const repo = 'acme/reviewer-roles';
    stack.repository(repo);
    const head = nextSha();
    await openPullRequest(repo, 12, head, { agent: true });
    await insertExecution(stack.t.database.db, { owner_id: stack.t.admin.id, repo_root: repo, commit_sha: head });
    await buildPassed(repo, head);
    for (const user of ['mona', 'tim', 'sec', 'docs']) await review(repo, 12, { user, state: 'APPROVED', commit_id: head });
    const d = await decide(stack.t, repo, head);
    const byLogin = Object.fromEntries(d.authorship.approvals.map((a: { login: string; reason: string | null }) => [a.login, a.reason]));
    expect(byLogin).toEqual({ mona: null, tim: 'no_write_permission', sec: null, docs: 'no_write_permission' });
    expect(d.decision).toBe('SHIP');
  });

  it('the exact role when GitHub’s two fields agree, else the classic permission', () => {
    expect(repoPermissionOf('write', 'maintain')).toBe('maintain');
    expect(repoPermissionOf('read', 'triage')).toBe('triage');
    expect(repoPermissionOf('admin', 'admin')).toBe('admin');
    expect(repoPermissionOf('write', 'security-reviewer')).toBe('write');
    expect(repoPermissionOf('read', 'maintain')).toBe('read');
    expect(repoPermissionOf('read', 'admin')).toBe('read');
    expect(repoPermissionOf('write', undefined)).toBe('write');
    expect(repoPermissionOf('owner', 'owner')).toBe('none');
  });
});
