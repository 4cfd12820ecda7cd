import { createHash, generateKeyPairSync } from 'node:crypto';
import { createSigner } from '../../core/certificates/create-signer.js';
import { createVerifier } from '../../core/certificates/create-verifier.js';
import { publicJwkOf } from '../../core/certificates/public-jwk.js';
import { IN_TOTO_STATEMENT_TYPE, type InTotoStatement } from '../../core/certificates/types.js';
import type { PullRequestFacts } from '../../core/release/authorship.js';
import { certificateValidity } from '../../core/release/certificate-validity.js';
import { governedCommits, isGovernedWork } from '../../core/release/governed-work.js';
import { readCommitState } from '../../core/release/read-commit-state.js';
import type { CommitStateFacts } from '../../core/release/release-store.js';
import { deniedCallSeverity, type SessionCoverageRecords, type SessionRecord } from '../../core/release/session-coverage.js';
import { judgeBoundWorkflows, type BoundExecutionFacts } from '../../core/workflows/judge-bound-workflows.js';
import { createCachingVerifier } from '../../core/release/caching-verifier.js';

// The rules the decision applies to what the database reports about a commit, driven with facts
// alone: no database. The store returns facts; core decides (ARCHITECTURE.md, "Where domain rules live").

const key = generateKeyPairSync('ed25519').privateKey;
const otherKey = generateKeyPairSync('ed25519').privateKey;
const statement: InTotoStatement = {
  _type: IN_TOTO_STATEMENT_TYPE,
  subject: [{ name: 'x', digest: { sha256: '0'.repeat(64) } }],
  predicateType: 'p',
  predicate: {},
};
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const signed = (by = key) => JSON.stringify(createSigner(by).sign(statement));
const verifier = () => createCachingVerifier(createVerifier([publicJwkOf(key)]));
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const SHA = 'c'.repeat(40);
const EARLIER = 'a'.repeat(40);

/** Reads envelopes from a list, recording which ids it was asked for. */
function envelopesFrom(stored: Record<string, string>) {
  const asked: string[][] = [];
  return {
    asked,
    read: async (ids: string[]) => {
      asked.push(ids);
      return ids.filter((i) => i in stored).map((i) => ({ id: i, envelope: stored[i] }));
    },
  };
}

function execution(n: number, over: Partial<BoundExecutionFacts> = {}): BoundExecutionFacts {
  return {
    id: id(n),
    owner_id: id(99),
    workflow_id: null,
    stage_id: null,
    stage_role: 'worker',
    status: 'completed',
    verdict: 'compliant',
    certificate: null,
    upstreams: null,
    ...over,
  };
}

describe('governed work (core/release/governed-work.ts)', () => {
  it('is work that completed with no non-compliant execution: not running, failed or cancelled work, nor one non-compliant execution', () => {
    expect(isGovernedWork({ status: 'completed', verdicts: ['compliant', 'compliant'] })).toBe(true);
    expect(isGovernedWork({ status: 'completed', verdicts: ['compliant', 'non_compliant'] })).toBe(false);
    for (const status of ['queued', 'running', 'failed', 'cancelled'] as const) {
      expect(isGovernedWork({ status, verdicts: ['compliant'] })).toBe(false);
    }
  });

  it("names each of a pull request's commits with governed work once, in code-unit order", () => {
    const work = [
      { sha: SHA, status: 'completed' as const, verdicts: ['compliant' as const] },
      { sha: EARLIER, status: 'completed' as const, verdicts: ['compliant' as const] },
      { sha: SHA, status: 'completed' as const, verdicts: [] },
      { sha: 'b'.repeat(40), status: 'completed' as const, verdicts: ['non_compliant' as const] },
      { sha: 'd'.repeat(40), status: 'running' as const, verdicts: [null] },
    ];
    expect(governedCommits(work)).toEqual([EARLIER, SHA]);
    expect(governedCommits([])).toEqual([]);
  });
});

describe("a denied call's severity in an agent session (core/release/session-coverage.ts)", () => {
  it('a built-in policy decides by its name whatever is stored; a custom one by what is stored; a policy not found blocks', () => {
    expect(deniedCallSeverity('default', null)).toBe('warning');
    expect(deniedCallSeverity('default', 'blocking')).toBe('warning');
    expect(deniedCallSeverity('hipaa', 'warning')).toBe('blocking');
    expect(deniedCallSeverity('team-policy', 'warning')).toBe('warning');
    expect(deniedCallSeverity('team-policy', 'blocking')).toBe('blocking');
    expect(deniedCallSeverity('team-policy', null)).toBe('blocking');
    expect(deniedCallSeverity('team-policy', 'something else')).toBe('blocking');
  });
});

describe('the workflows bound to a commit (core/workflows/judge-bound-workflows.ts)', () => {
  const workflowId = id(50);
  const reviewer = (over: Partial<BoundExecutionFacts> = {}) =>
    execution(1, { workflow_id: workflowId, stage_id: 'review', stage_role: 'reviewer', ...over });
  const upstream = { id: id(1), stage_id: 'review', status: 'completed', verdict: 'compliant', approved: true };
  const release = (up = upstream) => execution(2, { workflow_id: workflowId, stage_id: 'release', stage_role: 'release', upstreams: [up] });

  it('groups executions by workflow, a standalone execution being its own; the status is the record’s, else its executions’', () => {
    const judged = judgeBoundWorkflows([reviewer({ status: 'running', verdict: null }), release(), execution(3)], [], new Map());
    expect(judged.map((w) => [w.workflow_id, w.standalone, w.status, w.executions.length])).toEqual([
      [id(3), true, 'completed', 1],
      [workflowId, false, 'running', 2],
    ]);
    const record = { id: workflowId, owner_id: id(99), status: 'failed' as const, stages: [] };
    expect(judgeBoundWorkflows([reviewer(), release()], [record], new Map())[0]).toMatchObject({ status: 'failed', stages: [] });
  });

  it('admits a release whose upstreams completed compliant and approved it, and names each reason otherwise', () => {
    const admission = (up: typeof upstream) => judgeBoundWorkflows([reviewer(), release(up)], [], new Map())[0].release;
    expect(admission(upstream)).toEqual({ admission: 'admitted', reasons: [] });
    expect(admission({ ...upstream, approved: false })).toEqual({ admission: 'not_admitted', reasons: ['not_approved:review'] });
    expect(admission({ ...upstream, verdict: 'non_compliant' }).reasons).toEqual(['non_compliant:review']);
    expect(admission({ ...upstream, status: 'running' }).reasons).toEqual(['not_completed:review']);
    expect(judgeBoundWorkflows([execution(3)], [], new Map())[0].release).toEqual({ admission: 'none', reasons: [] });
  });

  it('a blocked release stage of the record carries the reasons it was refused with', () => {
    const blocked = { stage_id: 'release', stage_role: 'release', status: 'blocked' as const, blocked_reasons: ['not_approved:review'] };
    const record = { id: workflowId, owner_id: id(99), status: 'failed' as const, stages: [blocked] };
    expect(judgeBoundWorkflows([reviewer()], [record], new Map())[0].release).toEqual({
      admission: 'not_admitted',
      reasons: ['not_approved:review'],
    });
  });

  it('an execution certificate is valid as the verdicts say, one they do not name is not, and none is null', () => {
    const certified = (n: number) => execution(n, { certificate: { id: id(n + 10), sha256: 'x' } });
    const valid = new Map([
      [id(11), true],
      [id(12), false],
    ]);
    const judged = judgeBoundWorkflows([certified(1), certified(2), certified(3), execution(4)], [], valid);
    expect(judged.map((w) => w.executions[0].certificate_valid)).toEqual([true, false, false, null]);
  });
});

describe("whether a bound execution's certificate verifies (core/release/certificate-validity.ts)", () => {
  it('verifies an envelope it has not seen once, then answers by its digest without reading it again', async () => {
    const envelope = signed();
    const cached = verifier();
    const first = envelopesFrom({ [id(1)]: envelope });
    expect(await certificateValidity([{ id: id(1), sha256: sha256(envelope) }], cached, first.read)).toEqual(new Map([[id(1), true]]));
    expect(first.asked).toEqual([[id(1)]]);
    const again = envelopesFrom({});
    expect(await certificateValidity([{ id: id(2), sha256: sha256(envelope) }], cached, again.read)).toEqual(new Map([[id(2), true]]));
    expect(again.asked).toEqual([]);
  });

  it('a certificate signed by a key the verifier does not know, one altered after its digest was read and one gone are not valid', async () => {
    const envelope = signed();
    const altered = envelope.replace(/"sig":"./, (m) => m.slice(0, -1) + (m.endsWith('A') ? 'B' : 'A'));
    const stored = envelopesFrom({ [id(1)]: signed(otherKey), [id(2)]: altered });
    const certificates = [
      { id: id(1), sha256: 'unknown' },
      { id: id(2), sha256: sha256(envelope) },
      { id: id(3), sha256: 'gone' },
    ];
    expect(await certificateValidity(certificates, verifier(), stored.read)).toEqual(
      new Map([
        [id(1), false],
        [id(2), false],
        [id(3), false],
      ]),
    );
    expect(stored.asked).toEqual([[id(1), id(2), id(3)]]);
  });
});

describe("readCommitState applies the rules to the store's facts (core/release/read-commit-state.ts)", () => {
  const T0 = Date.UTC(2026, 0, 1);
  const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
  const agentCommit = (sha: string) => ({
    sha,
    author: { login: 'Copilot', type: 'Bot', name: 'Copilot', email: '198982749+Copilot@users.noreply.github.com' },
    committer: { login: 'web-flow', type: 'User', name: 'GitHub', email: 'noreply@github.com' },
    coauthors: [],
  });
  const pr: PullRequestFacts = {
    number: 12,
    head_sha: SHA,
    author: { login: 'Copilot', type: 'Bot' },
    assignees: [],
    commits: [agentCommit(EARLIER), agentCommit(SHA)],
    reviews: [],
  };
  const facts = (over: Partial<CommitStateFacts> = {}): CommitStateFacts => ({
    gate: null,
    evidence: { checkRuns: [], uploads: [] },
    executions: [],
    workflows: [],
    latest: null,
    attested: [],
    authorship: { number: 12, status: 'read', reason: null, facts: pr },
    merge_group: null,
    pull_request_work: [],
    open_pull_requests: [],
    overrides: [],
    ...over,
  });
  const session = (over: Partial<SessionRecord> = {}): SessionRecord => ({
    id: id(7),
    branch: null,
    status: 'running',
    verdict: null,
    started_at: at(0),
    finished_at: null,
    expires_at: at(60),
    denied_calls: 1,
    policy_name: 'team-policy',
    stored_severity: 'warning',
    ...over,
  });
  function read(state: CommitStateFacts, sessions: SessionRecord[] = [], envelopes: Record<string, string> = {}) {
    const asked: string[][] = [];
    const coverage = (shas: string[]): SessionCoverageRecords => {
      asked.push(shas);
      return { arrivals: [{ sha: SHA, branch: 'copilot/fix-12', arrived_at: at(10) }], sessions };
    };
    const store = {
      commitFacts: async () => state,
      certificateEnvelopes: envelopesFrom(envelopes).read,
      sessionCoverage: async (_repo: string, shas: string[]) => coverage(shas),
    };
    return { asked, state: readCommitState({ store, cachingVerifier: verifier() }, 'acme/app', SHA) };
  }

  it("reports governed work on the pull request's other commits, and a session's coverage by its policy's severity", async () => {
    const work = [{ sha: EARLIER, status: 'completed' as const, verdicts: ['compliant' as const] }];
    const { asked, state } = read(facts({ pull_request_work: work }), [session()]);
    const { authorship } = await state;
    expect(authorship.governedCommits).toEqual([EARLIER]);
    expect(asked).toEqual([[EARLIER, SHA]]);
    expect(authorship.sessions?.sessions.map((s) => s.denied_call_severity)).toEqual(['warning']);
    const missingPolicy = await read(facts(), [session({ stored_severity: null })]).state;
    expect(missingPolicy.authorship.sessions?.sessions.map((s) => s.denied_call_severity)).toEqual(['blocking']);
  });

  it('reads no sessions without read authorship, and judges a merge group whose pull request is not read yet as pending', async () => {
    const group = read(facts({ authorship: null, merge_group: { number: 7, head_sha: EARLIER } }));
    expect((await group.state).authorship).toEqual({
      record: { number: 7, status: 'pending', reason: null, facts: null },
      governedCommits: [],
    });
    expect(group.asked).toEqual([]);
  });

  it('makes the bound executions workflows, each certificate judged by the verifier', async () => {
    const envelope = signed();
    const executions = [
      execution(1, { certificate: { id: id(11), sha256: sha256(envelope) } }),
      execution(2, { certificate: { id: id(12), sha256: 'x' } }),
    ];
    const { workflows } = await read(facts({ executions }), [], { [id(11)]: envelope, [id(12)]: signed(otherKey) }).state;
    expect(workflows.map((w) => [w.workflow_id, w.executions[0].certificate_valid])).toEqual([
      [id(1), true],
      [id(2), false],
    ]);
  });
});
