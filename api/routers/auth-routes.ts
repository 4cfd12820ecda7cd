import { logIn } from '../../core/accounts/log-in.js';
import { logOut } from '../../core/accounts/log-out.js';
import { registerUser } from '../../core/accounts/register-user.js';
import { rotateKey } from '../../core/accounts/rotate-key.js';
import { apiKeyOf, authenticate, limit } from '../middleware/authenticate.js';
import { defineRoute } from '../route.js';
import { userWithKey } from '../user-with-key.js';
import {
  loginRequestSchema,
  loginResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
  rotateKeyResponseSchema,
  userResponseSchema,
} from '../schemas/account-schemas.js';

const tags = ['auth'] as const;

export const authRoutes = [
  defineRoute({
    method: 'post',
    path: '/auth/register',
    tags,
    auth: 'public',
    summary: 'Register a user',
    description:
      'No key needed while registration is open. The first user becomes ADMIN; later ones get SHIPGATE_DEFAULT_ROLE. An ADMIN key may register users and set their role. With SHIPGATE_REGISTRATION=closed only an ADMIN key may register users, except the very first user (who becomes ADMIN).',
    body: registerRequestSchema,
    responses: { 201: { description: 'Created; the api_key is shown only now.', schema: registerResponseSchema } },
    errors: {
      401: 'An API key was sent and it is invalid.',
      403: "Registration is closed and the caller is not an ADMIN, or the caller's account is deactivated.",
      409: 'An account with this email already exists.',
    },
    async handler({ body, ctx, deps }) {
      await limit(deps, `ip:${ctx.ip}:register`);
      const caller = apiKeyOf(ctx) ? await authenticate(ctx, deps, 'any') : undefined;
      return { status: 201, body: userWithKey(await registerUser(deps.accounts, deps.config, body, caller)) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/login',
    tags,
    auth: 'public',
    summary: 'Log in and receive a new key',
    description:
      "Issues a NEW key; the user's other keys stay valid. Failed logins slow down the address they come from, never the account: after 5 failures on one email (or 30 on any) in a day, that address waits 1 s after its last failure, then twice as long after each further one, up to 15 minutes; the owner logging in from another address is not refused.",
    body: loginRequestSchema,
    responses: { 200: { description: 'A new key.', schema: loginResponseSchema } },
    errors: {
      401: 'Invalid email or password (the same answer for both).',
      403: 'Account deactivated.',
      429: 'This address failed too often and must wait (even with the right password), or sent too many requests; see Retry-After.',
    },
    async handler({ body, ctx, deps }) {
      await limit(deps, `ip:${ctx.ip}:login`);
      return { body: userWithKey(await logIn(deps.accounts, body.email, body.password, ctx.ip)) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/rotate',
    tags,
    auth: 'any',
    summary: 'Replace the calling key',
    description: 'The key that made this call stops working at once.',
    responses: { 200: { description: 'The new key.', schema: rotateKeyResponseSchema } },
    async handler({ caller, deps }) {
      return { body: { api_key: await rotateKey(deps.accounts, caller) } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/logout',
    tags,
    auth: 'any',
    summary: 'Revoke the calling key (sign out)',
    description:
      "The key that made this call answers 401 from now on; the user's other keys (a CI key, another session) stay valid. The studio calls it when signing out.",
    responses: { 204: { description: 'Revoked.' } },
    async handler({ caller, deps }) {
      await logOut(deps.accounts, caller);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/auth/me',
    tags,
    auth: 'any',
    summary: 'The calling user',
    description:
      'The account the calling key belongs to, with its role and whether it is active: what a client checks before offering role-gated actions. `github` is the linked GitHub account (docs/github-app.md, "Sign in with GitHub"), null when none.',
    responses: { 200: { description: 'The user.', schema: userResponseSchema } },
    handler: ({ caller }) => ({ body: { ...caller.user, github: caller.github ?? null } }),
  }),
];
