import { z } from 'zod';
import { versionNumberQuerySchema } from './version-number-schema.js';
import { OUTPUT_RULES } from '../../core/agent/output-rules.js';
import { PRESET_MAX_BUDGET_CENTS, PRESET_MAX_TOOL_CALLS } from '../../core/policies/built-in-policies.js';
import { capabilityCovers } from '../../core/policies/capability-matches.js';
import { CAPABILITY_HINT, CAPABILITY_PATTERN } from '../../core/policies/capability-syntax.js';
import { toolRuleGlobProblem } from '../../core/policies/tool-rules.js';
import { globBudgetProblem } from '../../core/glob-budget.js';

/** One capability or capability pattern, e.g. `repo:read`, `document:write:*`, `*`. */
export const capabilitySchema = z.string().min(1).max(200).regex(CAPABILITY_PATTERN, CAPABILITY_HINT);

const capabilities = (description: string) => z.array(capabilitySchema).max(100).meta({ description });
const outputRuleSchema = z.enum(Object.keys(OUTPUT_RULES) as [string, ...string[]]);
const severitySchema = z.enum(['warning', 'blocking']);

/** One glob of a tool rule: it must compile (core/policies/tool-rules.ts). */
const ruleGlob = (kind: 'path' | 'text', description: string) =>
  z
    .string()
    .min(1)
    .max(500)
    .superRefine((glob, ctx) => {
      const problem = toolRuleGlobProblem(kind, glob);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional()
    .meta({ description });

export const toolRuleSchema = z
  .object({
    match: z
      .object({
        command: ruleGlob(
          'text',
          "A glob over a shell call's command line or any of its simple commands; `*` matches anything, spaces and `/` included: `git push --force*`, `curl * | sh`.",
        ),
        read: ruleGlob(
          'path',
          'A glob over a path the call reads, relative to the repository root; without `/` it matches in any directory: `.env*`.',
        ),
        write: ruleGlob('path', 'A glob over a path the call writes or edits: `.github/workflows/**`.'),
        host: ruleGlob('text', 'A glob over a host the call reaches: `*.example.com`.'),
        tool: ruleGlob('text', "A glob over the tool's name as the agent calls it: `WebFetch`, `mcp__github__*`."),
      })
      .strict()
      .refine((match) => Object.values(match).some((v) => v !== undefined), 'Name at least one of command, read, write, host, tool.'),
    verdict: z
      .enum(['allow', 'deny', 'ask'])
      .meta({ description: '`ask` holds the call until an independent APPROVER or ADMIN decides, or the timeout denies it.' }),
  })
  .strict()
  .meta({
    id: 'ToolRule',
    description: 'A rule on a coding agent\'s tool calls (docs/agent-hooks.md, "tool_rules"); every field of `match` must hold.',
  });

export const policyCreateSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, 'Lower-case letters, digits, _, . and -, at most 64 characters.')
      .meta({
        description: 'A new name creates version 1; an existing custom name creates its next version. Built-in names answer 409.',
        example: 'pci',
      }),
    description: z.string().max(400).default(''),
    ceiling: capabilities('Every capability an execution under this policy may ever hold.').min(1),
    defaults: capabilities('Granted when a request names no permissions; each within the ceiling. Defaults to the ceiling.').optional(),
    forbidden: capabilities('Never granted, and refused at run time, whatever is requested.').default([]),
    denied_call_severity: severitySchema
      .default('blocking')
      .meta({ description: '`blocking`: a denied tool call makes the execution non_compliant.' }),
    output_rules: z
      .array(outputRuleSchema)
      .max(10)
      .default(['secrets'])
      .meta({ description: 'Checks applied to tool outputs and the final answer.' }),
    max_tool_calls: z.number().int().min(1).max(1000).default(PRESET_MAX_TOOL_CALLS),
    max_budget_cents: z.number().int().min(100).max(PRESET_MAX_BUDGET_CENTS).default(PRESET_MAX_BUDGET_CENTS),
    retention_days: z.number().int().min(1).max(36_500).default(365),
    ask: capabilities(
      'Capabilities whose MCP gateway calls are held until an independent APPROVER or ADMIN approves them (docs/mcp-gateway.md, "Asking a person"); each within the ceiling and not forbidden.',
    ).optional(),
    ask_timeout_seconds: z
      .number()
      .int()
      .min(5)
      .max(3600)
      .optional()
      .meta({ description: 'How long a held call waits for a decision before it is denied; 120 when omitted.' }),
    tool_rules: z
      .array(toolRuleSchema)
      .max(200)
      .superRefine((rules, ctx) => {
        // After each glob's own check (cheap: core/linear-glob.ts checkGlob), before any is compiled at a hook call.
        const globs = rules.flatMap((rule, i) =>
          Object.entries(rule?.match ?? {}).map(([key, glob]): [(string | number)[], unknown] => [[i, 'match', key], glob]),
        );
        const problem = globBudgetProblem("The tool rules'", globs);
        if (problem) ctx.addIssue({ code: 'custom', ...problem });
      })
      .optional()
      .meta({
        description:
          "Rules on coding agents' tool calls through their hooks, in order: the first that matches decides (docs/agent-hooks.md).",
      }),
  })
  .strict()
  .superRefine((body, ctx) => {
    body.defaults?.forEach((d, i) => {
      if (!body.ceiling.some((c) => capabilityCovers(c, d)))
        ctx.addIssue({ code: 'custom', path: ['defaults', i], message: `'${d}' is not within the ceiling.` });
    });
    body.ask?.forEach((a, i) => {
      if (!body.ceiling.some((c) => capabilityCovers(c, a)))
        ctx.addIssue({
          code: 'custom',
          path: ['ask', i],
          message: `'${a}' is not within the ceiling: no session could ever make such a call.`,
        });
      else if (body.forbidden.some((f) => capabilityCovers(f, a)))
        ctx.addIssue({ code: 'custom', path: ['ask', i], message: `'${a}' is forbidden: its calls are refused, never asked.` });
    });
    if (body.ask_timeout_seconds !== undefined && !body.ask?.length && !body.tool_rules?.some((rule) => rule.verdict === 'ask'))
      ctx.addIssue({
        code: 'custom',
        path: ['ask_timeout_seconds'],
        message: 'ask_timeout_seconds needs at least one capability under ask, or a tool rule whose verdict is ask.',
      });
  })
  .transform((body) => ({ ...body, defaults: body.defaults ?? body.ceiling }))
  .meta({ id: 'PolicyCreateRequest' });

export const policySchema = z
  .object({
    name: z.string(),
    version: z.number().int().meta({ description: 'Versions are immutable; executions record name, version and digest.' }),
    description: z.string(),
    ceiling: z.array(z.string()),
    defaults: z.array(z.string()),
    forbidden: z.array(z.string()),
    denied_call_severity: severitySchema,
    output_rules: z.array(z.string()),
    max_tool_calls: z.number().int(),
    max_budget_cents: z.number().int(),
    retention_days: z.number().int(),
    ask: z.array(z.string()).optional().meta({ description: 'Present when calls of some capabilities are held for a person.' }),
    ask_timeout_seconds: z.number().int().optional(),
    tool_rules: z.array(toolRuleSchema).optional().meta({ description: "Present when the policy has rules on coding agents' tool calls." }),
    digest: z
      .string()
      .meta({ description: 'SHA-256 (hex) of the canonical JSON of the policy (every field above but digest, built_in and aliases).' }),
    built_in: z.boolean(),
    aliases: z.array(z.string()).meta({ description: 'Other names the policy answers to (`legal` for `legal_privilege`).' }),
  })
  .meta({ id: 'Policy' });

export const policyNameParamsSchema = z.object({ name: z.string().min(1).max(64) });
export const policyVersionQuerySchema = z.object({
  version: versionNumberQuerySchema.optional().meta({ description: 'A specific version; the newest when omitted.' }),
});

export const jwkSchema = z
  .object({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string(),
    kid: z.string().meta({ description: 'The DSSE keyid: hex SHA-256 of the raw 32-byte public key.' }),
    use: z.literal('sig'),
    alg: z.literal('EdDSA'),
    status: z.enum(['current', 'retired']),
    created_at: z.string().optional(),
    retired_at: z.string().nullable().optional(),
  })
  .meta({ id: 'PublicJwk' });

export const jwkSetSchema = z.object({ keys: z.array(jwkSchema) }).meta({ id: 'JsonWebKeySet' });
