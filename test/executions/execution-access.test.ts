import type { Role } from '../../core/accounts/roles.js';
import { ROLES } from '../../core/accounts/roles.js';
import type { Principal } from '../../core/accounts/user.js';
import { ForbiddenError, NotFoundError } from '../../core/errors.js';
import {
  assertCanCancel,
  assertMayListAll,
  canCancelOwnedResource,
  canSeeOwnedResource,
  mayListAll,
  visibleOwnedResource,
} from '../../core/executions/execution-access.js';

function caller(role: Role, id = 'caller'): Principal {
  return {
    user: { id, email: `${id}@example.com`, name: id, role, active: true, created_at: '2026-01-01T00:00:00.000Z', service_account: false },
    keyHash: 'k',
  };
}

const others = (roles: Role[]) => ROLES.filter((role) => !roles.includes(role));

describe('owned-resource access (executions today, workflows next)', () => {
  it('lets the owner of any role see and cancel their own resource', () => {
    for (const role of ROLES) {
      expect(canSeeOwnedResource(caller(role), 'caller')).toBe(true);
      expect(canCancelOwnedResource(caller(role), 'caller')).toBe(true);
    }
  });

  it("lets ADMIN and AUDITOR see another user's resource, and only ADMIN cancel it", () => {
    expect(canSeeOwnedResource(caller('ADMIN'), 'someone')).toBe(true);
    expect(canSeeOwnedResource(caller('AUDITOR'), 'someone')).toBe(true);
    expect(canCancelOwnedResource(caller('ADMIN'), 'someone')).toBe(true);
    expect(canCancelOwnedResource(caller('AUDITOR'), 'someone')).toBe(false);
    for (const role of others(['ADMIN', 'AUDITOR'])) {
      expect(canSeeOwnedResource(caller(role), 'someone')).toBe(false);
      expect(canCancelOwnedResource(caller(role), 'someone')).toBe(false);
    }
  });

  it('lets only ADMIN and AUDITOR list everyone (scope=all)', () => {
    expect(mayListAll(caller('ADMIN'))).toBe(true);
    expect(mayListAll(caller('AUDITOR'))).toBe(true);
    for (const role of others(['ADMIN', 'AUDITOR'])) {
      expect(mayListAll(caller(role))).toBe(false);
      expect(() => assertMayListAll(caller(role))).toThrow(ForbiddenError);
    }
  });

  it('answers NotFound, never Forbidden, for a resource the caller may not see or that does not exist', () => {
    const resource = { id: 'r1', owner_id: 'someone' };
    expect(visibleOwnedResource(caller('AUDITOR'), resource, 'Execution', 'r1')).toBe(resource);
    expect(() => visibleOwnedResource(caller('OPERATOR'), resource, 'Execution', 'r1')).toThrow(NotFoundError);
    expect(() => visibleOwnedResource(caller('ADMIN'), null, 'Execution', 'r1')).toThrow(NotFoundError);
  });

  it('refuses an AUDITOR cancelling with 403 naming what may not be cancelled', () => {
    expect(() => assertCanCancel(caller('AUDITOR'), 'someone', 'an execution')).toThrow(
      'Only the owner or an ADMIN may cancel an execution.',
    );
    expect(() => assertCanCancel(caller('ADMIN'), 'someone', 'an execution')).not.toThrow();
  });
});
