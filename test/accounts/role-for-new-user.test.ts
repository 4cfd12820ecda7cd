import { roleForNewUser } from '../../core/accounts/role-for-new-user.js';

describe('roleForNewUser', () => {
  it('makes the very first account ADMIN whatever role was asked for', () => {
    expect(roleForNewUser('VIEWER', false)).toBe('ADMIN');
    expect(roleForNewUser('AUDITOR', false)).toBe('ADMIN');
  });

  it('gives every later account the role it was registered with', () => {
    expect(roleForNewUser('VIEWER', true)).toBe('VIEWER');
    expect(roleForNewUser('ADMIN', true)).toBe('ADMIN');
  });
});
