import { z } from 'zod';
import { visibleName } from '../../core/visible-name.js';
import { ROLES } from '../../core/accounts/roles.js';

export const roleSchema = z.enum(ROLES).meta({ id: 'Role' });

const email = z.string().trim().max(254).pipe(z.email()).meta({ description: 'Compared case-insensitively.', example: 'ada@example.com' });
const password = z.string().min(8).max(1024).meta({ description: 'Secret, 8-1024 characters. Never returned.' });

const githubLinkSchema = z
  .strictObject({
    id: z.number().int().meta({ description: "GitHub's numeric user id: what the link is keyed by." }),
    login: z.string().meta({ description: 'The GitHub login, refreshed at each sign-in.' }),
  })
  .meta({ id: 'GitHubLink' });

export const registerRequestSchema = z
  .object({
    email,
    name: visibleName(z.string().trim().min(1).max(120)),
    password,
    role: roleSchema.optional().meta({ description: 'Only honoured when the request carries an ADMIN key; ignored otherwise.' }),
  })
  .strict()
  .meta({ id: 'RegisterRequest' });

export const loginRequestSchema = z
  .object({
    email: z.string().max(254),
    password: z.string().max(1024),
  })
  .strict()
  .meta({ id: 'LoginRequest' });

export const registerResponseSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    role: roleSchema,
    api_key: z.string().meta({ description: 'Shown once; store it. Send as `Authorization: Bearer <key>`.' }),
  })
  .meta({ id: 'RegisterResponse' });

export const loginResponseSchema = registerResponseSchema.meta({ id: 'LoginResponse' });

export const rotateKeyResponseSchema = z.object({ api_key: z.string() }).meta({ id: 'RotateKeyResponse' });

export const userResponseSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string(),
    role: roleSchema,
    active: z.boolean(),
    created_at: z.string().meta({ description: 'RFC 3339 UTC' }),
    github: githubLinkSchema
      .nullable()
      .optional()
      .meta({ description: 'The linked GitHub account (`GET /auth/me` only): null when none is linked.' }),
    service_account: z.boolean().meta({
      description:
        'Made a service account by an ADMIN (for CI keys): judged by its role alone on repositories, without a GitHub link (docs/api.md, "Repository access").',
    }),
    repository_access: z
      .enum(['role_only', 'github', 'public_only', 'link_required'])
      .optional()
      .meta({
        description:
          'How repository actions are decided for this account under the mode in force (`GET /users` and `PATCH /users/{user_id}`): ' +
          '`role_only` its role alone; `github` its role and the permission of the GitHub account it is (or was last) linked to; ' +
          '`public_only` never linked: it reads public repositories only (make it a service account, or link it, to give it more); ' +
          '`link_required` never linked, under `github-required`: no repository.',
      }),
  })
  .meta({ id: 'UserResponse' });

export const userPatchSchema = z
  .object({
    role: roleSchema.optional(),
    active: z.boolean().optional(),
    service_account: z
      .boolean()
      .optional()
      .meta({ description: 'A service account (for CI keys) is judged by its role alone on repositories, without a GitHub link.' }),
  })
  .strict()
  .meta({ id: 'UserPatch' });

export const userIdParamsSchema = z.object({ user_id: z.uuid() });
