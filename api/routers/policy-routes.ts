import { z } from 'zod';
import { NotFoundError } from '../../core/errors.js';
import { BUILT_IN_POLICIES, isBuiltInPolicyName, POLICY_ALIASES } from '../../core/policies/built-in-policies.js';
import type { Policy } from '../../core/policies/policy.js';
import { policyDigest } from '../../core/policies/policy-digest.js';
import { defineRoute } from '../route.js';
import { locationHeader } from '../schemas/header-schemas.js';
import { policyCreateSchema, policyNameParamsSchema, policySchema, policyVersionQuerySchema } from '../schemas/policy-schemas.js';

function policyResponse(policy: Policy) {
  const aliases = Object.entries(POLICY_ALIASES)
    .filter(([, name]) => name === policy.name)
    .map(([alias]) => alias);
  return { ...policy, digest: policyDigest(policy), built_in: isBuiltInPolicyName(policy.name), aliases };
}

export const policyRoutes = [
  defineRoute({
    method: 'get',
    path: '/compliance/presets',
    tags: ['compliance'],
    auth: 'public',
    summary: 'The built-in compliance presets',
    description: '`default`, `hipaa`, `sox` and `legal_privilege` (alias `legal`). Presets are immutable (version 1).',
    responses: { 200: { description: 'Every built-in preset.', schema: z.array(policySchema) } },
    handler: () => ({ body: BUILT_IN_POLICIES.map(policyResponse) }),
  }),
  defineRoute({
    method: 'get',
    path: '/policies',
    tags: ['policies'],
    auth: 'any',
    summary: 'Every policy: the built-in presets, then the newest version of each custom policy',
    description:
      'Presets are immutable (version 1) and carry `built_in: true` and their aliases; each custom policy appears once, at its newest version. ' +
      '`digest` identifies the exact version an execution ran under.',
    responses: { 200: { description: 'Built-in presets first, then custom policies by name.', schema: z.array(policySchema) } },
    async handler({ deps }) {
      return { body: (await deps.policies.list()).map(policyResponse) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/policies/{name}',
    tags: ['policies'],
    auth: 'any',
    summary: 'One policy (by name or alias), its newest version unless ?version= is given',
    description:
      'Versions are immutable, so `?version=` returns exactly what an execution recorded in its `policy`. An unknown name, or a version ' +
      'that does not exist (a preset has only version 1), answers 404.',
    params: policyNameParamsSchema,
    query: policyVersionQuerySchema,
    responses: { 200: { description: 'The policy.', schema: policySchema } },
    async handler({ params, query, deps }) {
      const policy = await deps.policies.get(params.name, query.version);
      if (!policy) throw new NotFoundError('Policy', params.name);
      return { body: policyResponse(policy) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/policies',
    tags: ['policies'],
    auth: ['ADMIN', 'POLICY_AUTHOR'],
    summary: 'Create a custom policy, or the next version of one (ADMIN, POLICY_AUTHOR)',
    description:
      'Versions are immutable: every call stores a new version (previous + 1, or 1). Executions created afterwards use the newest version; running ones keep theirs.',
    body: policyCreateSchema,
    responses: {
      201: { description: 'The stored version.', schema: policySchema, headers: locationHeader("The new version's URL.") },
    },
    errors: { 409: 'The name is a built-in preset (or its alias).' },
    async handler({ body, caller, deps }) {
      const policy = await deps.policies.create(body, caller.user.id);
      return {
        status: 201,
        body: policyResponse(policy),
        headers: { Location: `/api/v1/policies/${policy.name}?version=${policy.version}` },
      };
    },
  }),
];
