// The Action's view of the API, as the studio's (studio/types.d.ts): each answer it reads and each
// body it sends is typed by the zod schema that validates it and documents it in /openapi.json.
// The imports are type-only, so esbuild drops them and the bundle holds nothing of the server
// (test/action/bundle.test.ts); change a field there and `npm run typecheck` fails where the
// Action uses it.
import type { z } from 'zod';
import type { blockerSchema, decisionResponseSchema } from '../../api/schemas/release-decision-schemas.js';
import type { evidenceRequestSchema, evidenceResponseSchema } from '../../api/schemas/release-evidence-schemas.js';
import type { agentSessionCreateSchema, agentSessionSchema } from '../../api/schemas/mcp-schemas.js';
import type { hookSettingsFileSchema } from '../../api/schemas/hook-settings-schemas.js';

export type Blocker = z.output<typeof blockerSchema>;
/** GET /releases/decision. */
export type ReleaseDecision = z.output<typeof decisionResponseSchema>;
/** POST /releases/evidence: what the Action sends, and the record it gets back. */
export type EvidenceRequest = z.input<typeof evidenceRequestSchema>;
export type EvidenceRecord = z.output<typeof evidenceResponseSchema>;
/** What shipgate read from an uploaded document, one shape per format. */
export type EvidenceSummary = NonNullable<EvidenceRecord['summary']>;
/** POST /agent-sessions: what the Action sends, and the session it gets back. */
export type AgentSessionRequest = z.input<typeof agentSessionCreateSchema>;
export type AgentSession = z.output<typeof agentSessionSchema>;
/** GET /agent-sessions/{id}/hooks: the configuration file of a coding agent's hooks. */
export type HookSettingsFile = z.output<typeof hookSettingsFileSchema>;
