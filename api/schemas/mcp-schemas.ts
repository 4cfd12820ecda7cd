import { z } from 'zod';
import { visibleName } from '../../core/visible-name.js';
import { isGatewayControlledHeader } from '../../core/mcp/gateway-controlled-headers.js';
import { REPOSITORY_PERMISSION_LEVELS } from '../../core/github/repository-permissions.js';
import { AGENT_KEY_REVOKED_REASONS } from '../../core/mcp/agent-key.js';
import { repoRootSchema } from './execution-schemas.js';
import { capabilitySchema } from './policy-schemas.js';
import { workflowRunSchema } from './release-evidence-schemas.js';

/** An upstream's name: the `<server>` of `mcp:<server>/<tool>` and of the `<server>__<tool>` tool names. */
export const mcpServerNameSchema = z
  .string()
  .regex(/^[a-z0-9-]{1,40}$/, 'Lower-case letters, digits and -, at most 40 characters.')
  .meta({ example: 'github' });

/** MCP tool names (the specification's recommended characters), as they appear in `mcp:<server>/<tool>`. */
export const mcpToolNameSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'Letters, digits, _, . and -, at most 128 characters.');

const headerNameSchema = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'An HTTP header name.');
const headerValueSchema = z
  .string()
  .max(8192)
  .regex(/^[^\r\n\0]*$/, 'A header value cannot contain line breaks or NUL.');

/**
 * Query parameter names that look like credentials: the whole URL is shown to every OPERATOR (GET
 * /mcp/servers). A name is read as words (`api_key`, `apiKey`, `X-Amz-Signature`); one of these
 * words, or a name ending in one of the first five (`accesstoken`), is refused. Words, not
 * substrings: `keyword` and `author` are no credentials.
 */
const CREDENTIAL_WORDS = new Set([
  'token',
  'key',
  'secret',
  'password',
  'signature',
  'passwd',
  'pwd',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'sig',
  'code',
  'session',
]);
const CREDENTIAL_ENDINGS = /(token|key|secret|password|signature)$/;

const wordsOf = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);

/** The names of `url`'s query parameters that look like credentials (as decoded), each once. */
function credentialQueryParameters(url: URL): string[] {
  const names = new Set(url.searchParams.keys());
  return [...names].filter(
    (name) => CREDENTIAL_ENDINGS.test(name.toLowerCase()) || wordsOf(name).some((word) => CREDENTIAL_WORDS.has(word)),
  );
}

/** `auth`: how shipgate authenticates to the upstream beyond its headers (docs/mcp-gateway.md, "Least-privilege upstream credentials"). */
export const mcpServerAuthSchema = z
  .object({
    github_app: z
      .object({
        permissions: z
          .record(z.string(), z.enum(['read', 'write']))
          .superRefine((permissions, ctx) => {
            for (const [name, level] of Object.entries(permissions)) {
              const levels = REPOSITORY_PERMISSION_LEVELS[name];
              if (!levels)
                ctx.addIssue({
                  code: 'custom',
                  path: [name],
                  message: `'${name}' is not a GitHub repository permission (a token is limited to the session's repository); one of ${Object.keys(REPOSITORY_PERMISSION_LEVELS).join(', ')}.`,
                });
              else if (!levels.includes(level))
                ctx.addIssue({ code: 'custom', path: [name], message: `GitHub grants '${name}' only as ${levels.join(' or ')}.` });
            }
          })
          .refine((p) => Object.keys(p).length >= 1, 'Name at least one permission.')
          .meta({
            description:
              'GitHub repository permissions (`read` or `write`) the token is limited to, e.g. `{"issues": "write", "contents": "read"}`.',
          }),
      })
      .strict(),
  })
  .strict()
  .meta({
    id: 'McpServerAuth',
    description:
      "`github_app`: per agent session, shipgate mints the GitHub App's installation token limited to the session's repository and these " +
      'permissions and sends it as `Authorization: Bearer`, refreshed before it expires; never shown to the agent.',
  });

export const mcpServerCreateSchema = z
  .object({
    name: mcpServerNameSchema,
    url: z
      .url({ protocol: /^https?$/, error: 'An http(s) URL of a Streamable HTTP MCP endpoint.' })
      .max(2000)
      // The URL is shown to every OPERATOR and ADMIN (GET /mcp/servers); a credential belongs in the sealed headers.
      .refine((url) => {
        // Refinements run on what `.url()` refused too: a text that is no URL is that check's to report.
        if (!URL.canParse(url)) return true;
        const parsed = new URL(url);
        return parsed.username === '' && parsed.password === '';
      }, 'The URL may not hold a user name or password: it is shown to every OPERATOR. Send credentials as `headers` (stored encrypted, never returned) or `auth`.')
      .superRefine((url, ctx) => {
        if (!URL.canParse(url)) return;
        // Named, never quoted: the value is the secret.
        for (const name of credentialQueryParameters(new URL(url)))
          ctx.addIssue({
            code: 'custom',
            message: `The query parameter '${name}' looks like a credential, and the URL is shown to every OPERATOR. Send credentials as \`headers\` (stored encrypted, never returned) or \`auth\`.`,
          });
      })
      .meta({
        description:
          "The upstream's Streamable HTTP endpoint, without credentials in it (422): no user name or password, no query parameter named like a " +
          'credential (a word of its name `token`, `key`, `secret`, `password`, `signature`, `passwd`, `pwd`, `auth`, `authorization`, ' +
          '`credential(s)`, `sig`, `code` or `session`, as in `api_key` or `apiKey`; or a name ending in one of the first five). Only HTTP upstreams: shipgate never spawns programs.',
        example: 'https://mcp.example.com/mcp',
      }),
    headers: z
      .record(headerNameSchema, headerValueSchema)
      .refine((h) => Object.keys(h).length <= 20, 'At most 20 headers.')
      .superRefine((headers, ctx) => {
        for (const name of Object.keys(headers))
          if (isGatewayControlledHeader(name.toLowerCase()))
            ctx.addIssue({
              code: 'custom',
              path: [name],
              message: `shipgate sets '${name}' itself (message framing, the connection or the MCP protocol): it cannot be registered.`,
            });
      })
      .optional()
      .meta({
        description:
          'Sent with every request to the upstream (e.g. its own token). Stored encrypted; never returned. Headers shipgate sets itself are ' +
          'refused (422): `Host`, `Content-Length`, `Transfer-Encoding`, `Connection`, `Keep-Alive`, `TE`, `Trailer`, `Upgrade`, `Expect`, ' +
          '`Content-Type`, `Accept`, `Mcp-Session-Id`, `Mcp-Protocol-Version`, `Last-Event-ID`.',
      }),
    tools: z
      .record(mcpToolNameSchema, z.array(capabilitySchema).max(20))
      .refine((t) => Object.keys(t).length <= 500, 'At most 500 tools.')
      .optional()
      .meta({ description: "Tool name -> the capabilities it needs, replacing what the tool's annotations imply." }),
    auth: mcpServerAuthSchema.optional(),
  })
  .strict()
  .meta({ id: 'McpServerCreateRequest' });

export const mcpServerSchema = z
  .object({
    name: z.string(),
    url: z.string(),
    header_names: z.array(z.string()).meta({ description: 'The names of the stored headers; their values are never returned.' }),
    tools: z.record(z.string(), z.array(z.string())).nullable(),
    auth: mcpServerAuthSchema.nullable().meta({ description: 'Null: the stored headers are all the upstream gets.' }),
    created_at: z.string(),
  })
  .meta({ id: 'McpServer' });

export const mcpServerParamsSchema = z.object({ name: mcpServerNameSchema });

export const agentSessionCreateSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(200)
      .meta({ description: "What the session is for; recorded as the execution's task.", example: 'Fix issue #12' }),
    repo_root: repoRootSchema,
    branch: z.string().min(1).max(255).optional().meta({ description: 'The branch the agent works on, when it is known.' }),
    compliance_policy: z.string().min(1).max(64).default('default'),
    permissions: z.array(capabilitySchema).max(100).optional().meta({
      description:
        "Requested capabilities, e.g. `mcp:github/*`; the policy's defaults when omitted. Resolved strictly, as for POST /tasks.",
    }),
    servers: z.array(mcpServerNameSchema).max(20).default([]).meta({
      description:
        "The registered upstream MCP servers the agent may reach; none for a session or key that governs only the agent's own tools through its hooks (docs/agent-hooks.md).",
    }),
    max_tool_calls: z
      .int()
      .min(1)
      .max(1000)
      .optional()
      .meta({ description: "At most the policy's `max_tool_calls`, which is the default." }),
    expires_in_seconds: z.int().min(60).max(86_400).default(3600),
  })
  .strict()
  .meta({ id: 'AgentSessionCreateRequest' });

export const agentSessionSchema = z
  .object({
    id: z.uuid().meta({ description: 'The session; the same id as its execution.' }),
    execution_id: z.uuid(),
    mcp_url: z.string().meta({ description: 'The Streamable HTTP MCP endpoint of this session.' }),
    token: z.string().meta({ description: 'Send as `Authorization: Bearer`; shown once, scoped to this session.' }),
    expires_at: z.string(),
    branch: z.string().nullable().meta({ description: 'The branch the session is bound to; for a workflow, its own.' }),
    workflow_run: workflowRunSchema
      .nullable()
      .meta({ description: 'The GitHub Actions workflow run whose OIDC token opened the session; null when an API key did.' }),
  })
  .meta({ id: 'AgentSession' });

export const agentSessionParamsSchema = z.object({ session_id: z.uuid() });

export const agentKeyCreateSchema = agentSessionCreateSchema
  .omit({ branch: true })
  .extend({
    name: visibleName(z.string().min(1).max(200)).meta({
      description: 'Names the key, and each session it opens.',
      example: 'copilot-coding-agent',
    }),
    expires_in_seconds: z.int().min(60).max(86_400).default(3600).meta({ description: 'How long each session the key opens may last.' }),
  })
  .strict()
  .meta({ id: 'AgentKeyCreateRequest' });

export const agentKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    repo_root: z.string(),
    compliance_policy: z.string(),
    policy_version: z.int().meta({
      description:
        'The version of `compliance_policy` every session the key opens runs under, pinned when the key was made; a newer version ' +
        'reaches the key only when an ADMIN re-points it (PATCH /agent-keys/{key_id}).',
    }),
    permissions: z.array(z.string()).nullable().meta({ description: "Null: the policy's defaults." }),
    servers: z.array(z.string()),
    max_tool_calls: z.int().nullable(),
    expires_in_seconds: z.int(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    revoked_reason: z.enum(AGENT_KEY_REVOKED_REASONS).nullable().meta({
      description: '`revoked` by an ADMIN, or `creator_deactivated` with the deactivation of the ADMIN who made it; null while live.',
    }),
  })
  .meta({ id: 'AgentKey' });

export const agentKeyCreatedSchema = agentKeySchema
  .extend({
    key: z.string().meta({ description: 'Send as `Authorization: Bearer` to `mcp_url`; shown once.' }),
    mcp_url: z.string().meta({ description: 'The MCP endpoint every session of this key is opened at.' }),
  })
  .meta({ id: 'AgentKeyCreated' });

export const agentKeyParamsSchema = z.object({ key_id: z.uuid() });

export const agentKeyRepointSchema = z
  .object({
    compliance_policy: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({ description: "The policy the key's sessions run under from now on; the key's own when omitted." }),
    policy_version: z
      .int()
      .min(1)
      .optional()
      .meta({ description: "Its version; the newest when omitted (an empty body adopts the newest version of the key's policy)." }),
  })
  .strict()
  .meta({ id: 'AgentKeyRepointRequest' });
