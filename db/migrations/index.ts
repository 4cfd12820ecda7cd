import type { Knex } from 'knex';
import * as m001 from './001-accounts.js';
import * as m002 from './002-worker-heartbeats.js';
import * as m003 from './003-policies-and-signing-keys.js';
import * as m004 from './004-executions.js';
import * as m005 from './005-release-gate.js';
import * as m006 from './006-unlogged-rate-limits.js';
import * as m008 from './008-github-app.js';
import * as m009 from './009-evidence-workflow-run.js';
import * as m007 from './007-workflows.js';
import * as m011 from './011-deployments-and-recovery.js';
import * as m012 from './012-decision-read-paths.js';
import * as m013 from './013-journal-write-path.js';
import * as m014 from './014-release-state-versions.js';
import * as m015 from './015-github-rejections.js';
import * as m016 from './016-snapshot-write-path.js';
import * as m021 from './021-pull-request-authorship.js';
import * as m022 from './022-mcp-servers.js';
import * as m023 from './023-agent-sessions.js';
import * as m024 from './024-agent-keys.js';
import * as m025 from './025-commit-arrivals.js';
import * as m026 from './026-evidence-documents.js';
import * as m027 from './027-merge-group-pull-request.js';
import * as m028 from './028-agent-session-workflow-run.js';
import * as m029 from './029-journal-without-row-checks.js';
import * as m030 from './030-github-identities.js';
import * as m031 from './031-github-app-registration.js';
import * as m032 from './032-github-sign-in.js';
import * as m033 from './033-delivery-outcomes.js';
import * as m034 from './034-tool-call-certificates.js';
import * as m036 from './036-login-failures-by-client.js';
import * as m037 from './037-agent-key-open-sessions.js';
import * as m038 from './038-check-run-sources.js';
import * as m039 from './039-workflow-evidence-binding.js';
import * as m040 from './040-github-access-kept.js';
import * as m041 from './041-agent-key-pinned-policy.js';
import * as m042 from './042-github-sign-in-browser.js';
import * as m047 from './047-release-overrides.js';
import * as m048 from './048-mcp-tool-pins.js';
import * as m049 from './049-mcp-server-auth.js';
import * as m050 from './050-agent-call-approvals.js';
import * as m051 from './051-mcp-sessions.js';
import * as m052 from './052-mcp-session-last-used.js';
import * as m053 from './053-hook-calls.js';
import * as m054 from './054-tool-call-agent-id.js';

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
}

/** Every migration, in order. Append only; never edit one that has shipped. */
export const migrations: Migration[] = [
  { name: '001-accounts', up: m001.up },
  { name: '002-worker-heartbeats', up: m002.up },
  { name: '003-policies-and-signing-keys', up: m003.up },
  { name: '004-executions', up: m004.up },
  { name: '005-release-gate', up: m005.up },
  { name: '006-unlogged-rate-limits', up: m006.up },
  { name: '008-github-app', up: m008.up },
  { name: '009-evidence-workflow-run', up: m009.up },
  { name: '007-workflows', up: m007.up },
  { name: '011-deployments-and-recovery', up: m011.up },
  { name: '012-decision-read-paths', up: m012.up },
  { name: '013-journal-write-path', up: m013.up },
  { name: '014-release-state-versions', up: m014.up },
  { name: '015-github-rejections', up: m015.up },
  { name: '016-snapshot-write-path', up: m016.up },
  { name: '021-pull-request-authorship', up: m021.up },
  { name: '022-mcp-servers', up: m022.up },
  { name: '023-agent-sessions', up: m023.up },
  { name: '024-agent-keys', up: m024.up },
  { name: '025-commit-arrivals', up: m025.up },
  { name: '026-evidence-documents', up: m026.up },
  { name: '027-merge-group-pull-request', up: m027.up },
  { name: '028-agent-session-workflow-run', up: m028.up },
  { name: '029-journal-without-row-checks', up: m029.up },
  { name: '030-github-identities', up: m030.up },
  { name: '031-github-app-registration', up: m031.up },
  { name: '032-github-sign-in', up: m032.up },
  { name: '033-delivery-outcomes', up: m033.up },
  { name: '034-tool-call-certificates', up: m034.up },
  { name: '036-login-failures-by-client', up: m036.up },
  { name: '037-agent-key-open-sessions', up: m037.up },
  { name: '038-check-run-sources', up: m038.up },
  { name: '039-workflow-evidence-binding', up: m039.up },
  { name: '040-github-access-kept', up: m040.up },
  { name: '041-agent-key-pinned-policy', up: m041.up },
  { name: '042-github-sign-in-browser', up: m042.up },
  { name: '047-release-overrides', up: m047.up },
  { name: '048-mcp-tool-pins', up: m048.up },
  { name: '049-mcp-server-auth', up: m049.up },
  { name: '050-agent-call-approvals', up: m050.up },
  { name: '051-mcp-sessions', up: m051.up },
  { name: '052-mcp-session-last-used', up: m052.up },
  { name: '053-hook-calls', up: m053.up },
  { name: '054-tool-call-agent-id', up: m054.up },
];
