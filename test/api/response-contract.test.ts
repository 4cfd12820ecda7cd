import { z } from 'zod';
import type { AccountStore } from '../../core/accounts/account-store.js';
import { checkResponseContract } from '../../api/response-contract.js';
import { defineRoute } from '../../api/route.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let listUsers: AccountStore['listUsers'];
beforeAll(async () => {
  t = await createTestApp();
  listUsers = t.deps.accounts.listUsers;
});
afterEach(() => {
  t.deps.accounts.listUsers = listUsers;
});
afterAll(async () => {
  await t.close();
});

/** Makes GET /users answer what the store returns, changed by `edit`. */
function storeAnswers(edit: (user: Record<string, unknown>) => Record<string, unknown>): void {
  t.deps.accounts.listUsers = async (page) => {
    const result = await listUsers.call(t.deps.accounts, page);
    return { ...result, items: result.items.map((user) => edit({ ...user })) as never };
  };
}

describe('every success body the test app sends is checked against its declared schema', () => {
  it('lets a body that matches its schema through', async () => {
    const res = await t.request.get('/api/v1/users').set(t.admin.auth);
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ email: t.admin.email });
  });

  it('fails a response that carries an undeclared field', async () => {
    storeAnswers((user) => ({ ...user, password_hash: '$argon2id$leaked' }));
    const res = await t.request.get('/api/v1/users').set(t.admin.auth);
    expect(res.status).toBe(500);
    expect(res.body.detail).toBe('Response contract violated: GET /users 200: undeclared field $[0].password_hash');
    expect(t.logs.text()).toContain('response contract violated');
  });

  it('fails a response that lacks a declared field', async () => {
    storeAnswers(({ email: _email, ...user }) => user);
    const res = await t.request.get('/api/v1/users').set(t.admin.auth);
    expect(res.status).toBe(500);
    expect(res.body.detail).toMatch(/^Response contract violated: GET \/users 200: 0\.email: /);
  });

  it('fails a field of the wrong type', async () => {
    storeAnswers((user) => ({ ...user, active: 'yes' }));
    const res = await t.request.get('/api/v1/users').set(t.admin.auth);
    expect(res.status).toBe(500);
    expect(res.body.detail).toMatch(/0\.active: /);
  });
});

describe('checkResponseContract', () => {
  const item = z.object({ id: z.string(), tags: z.array(z.object({ name: z.string() })), note: z.string().nullable() });
  const route = defineRoute({
    method: 'post',
    path: '/things',
    tags: ['executions'],
    auth: 'any',
    summary: 'test route',
    description: 'A route that exists only in this test.',
    responses: {
      200: { description: 'unchanged', schema: item },
      201: { description: 'created', schema: item },
      202: { description: 'an image', schema: z.string(), contentType: 'image/svg+xml' },
      204: { description: 'no body' },
    },
    handler: () => undefined,
  });

  it('finds an undeclared field deep in a nested array', () => {
    expect(checkResponseContract(route, 201, { id: 'a', tags: [{ name: 'x' }, { name: 'y', colour: 'red' }], note: null })).toBe(
      'POST /things 201: undeclared field $.tags[1].colour',
    );
  });

  it('accepts what the schema declares, serialised as JSON goes on the wire', () => {
    expect(checkResponseContract(route, 200, { id: 'a', tags: [], note: null, dropped: undefined })).toBeUndefined();
  });

  it('checks a JSON body sent as its text already (the decision answer) as parsed', () => {
    expect(checkResponseContract(route, 200, Buffer.from('{"id":"a","tags":[],"note":null}'))).toBeUndefined();
    expect(checkResponseContract(route, 201, Buffer.from('{"id":"a","tags":[{"name":"x","colour":"red"}],"note":null}'))).toBe(
      'POST /things 201: undeclared field $.tags[0].colour',
    );
  });

  it('refuses a status the route does not declare', () => {
    expect(checkResponseContract(route, 206, { id: 'a' })).toBe('POST /things 206: status not declared by the route');
  });

  it('refuses a JSON body where none is declared, and leaves other content types and errors alone', () => {
    expect(checkResponseContract(route, 204, { id: 'a' })).toBe('POST /things 204: sent a JSON body, but the route declares none');
    expect(checkResponseContract(route, 204, null)).toBeUndefined();
    expect(checkResponseContract(route, 202, '<svg/>')).toBeUndefined();
    expect(checkResponseContract(route, 404, { detail: 'Not found.', extra: 1 })).toBeUndefined();
  });
});
