import type { Role } from '../../core/accounts/roles.js';
import type { TestApp, TestUser } from './test-app.js';

/**
 * A user of `role` an ADMIN made a service account (`PATCH /users/{id}` `service_account: true`):
 * judged by its role alone on repositories, as a CI key's account is (docs/api.md, "Repository access").
 */
export async function serviceAccount(t: TestApp, role: Role = 'OPERATOR', email?: string): Promise<TestUser> {
  const user = await t.user(role, email);
  if (user.id === t.admin.id) return user;
  const res = await t.request.patch(`/api/v1/users/${user.id}`).set(t.admin.auth).send({ service_account: true });
  if (res.status !== 200) throw new Error(`service account refused: ${res.status} ${JSON.stringify(res.body)}`);
  return user;
}
