import { z } from 'zod';

export const githubSignInStatusSchema = z
  .strictObject({
    enabled: z.boolean().meta({ description: "Whether the App's OAuth client is configured: the studio shows its button only then." }),
    organizations: z.array(z.string()).meta({
      description: 'SHIPGATE_GITHUB_ALLOWED_ORGS: only members of these organisations may sign in; empty admits every GitHub user.',
    }),
  })
  .meta({ id: 'GitHubSignInStatus' });

export const githubCallbackQuerySchema = z.object({
  code: z.string().min(1).max(512).optional().meta({ description: "GitHub's one-time code (absent when the user denied access)." }),
  state: z.string().min(1).max(512).optional().meta({ description: 'The single-use state this sign-in started with.' }),
  error: z.string().max(200).optional().meta({ description: "GitHub's refusal, e.g. `access_denied` when the user cancelled." }),
  error_description: z.string().max(2000).optional(),
  error_uri: z.string().max(2000).optional(),
});

export const githubExchangeRequestSchema = z
  .strictObject({
    code: z.string().min(1).max(200).meta({
      description:
        'The one-time code the callback put in the studio URL (single-use, 1 minute): `github_code` of a sign-in, or `github_link` of a pending link.',
    }),
  })
  .meta({ id: 'GitHubSignInExchange' });

export const githubAuthorizeUrlSchema = z
  .strictObject({
    authorize_url: z
      .string()
      .meta({ format: 'uri', description: "GitHub's authorization page to send the browser to (with the state and the PKCE challenge)." }),
    expires_at: z.string().meta({ description: 'When the state expires (10 minutes), RFC 3339 UTC.' }),
  })
  .meta({ id: 'GitHubAuthorizeUrl' });

export const githubCallbackResultSchema = z
  .strictObject({
    result: z.enum(['signed_in', 'link_pending', 'linked']).meta({
      description:
        'From the callback: `signed_in`, or `link_pending` (the caller who started the link finishes it); from `POST /auth/github/link/finish`: `linked`.',
    }),
    github_login: z.string(),
    code: z
      .string()
      .nullable()
      .meta({
        description:
          'The one-time code (1 minute): after a sign-in, to trade with `POST /auth/github/exchange`; for a pending link, to send with ' +
          '`POST /auth/github/link/finish` and the key of the user who started it; null once linked.',
      }),
  })
  .meta({ id: 'GitHubCallbackResult' });
