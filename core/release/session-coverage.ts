import type { ExecutionStatus, Verdict } from '../executions/execution.js';
import { builtInPolicy } from '../policies/built-in-policies.js';
import type { SessionCover } from './authorship.js';
import { normalizeRefName } from './github-identifiers.js';
import { redactSecrets } from '../agent/output-rules.js';
import { runsGitPush } from '../hooks/git-push.js';
import { isShellTool } from '../hooks/tool-kinds.js';

/**
 * Which governed agent session covers an agent's commit (docs/mcp-gateway.md, "Sessions and the
 * commits they produced"), decided from when shipgate saw each push arrive, never from the
 * commit's own date, which its author writes.
 */

/** A push delivered this long after a session ended still counts for it: GitHub delivers pushes with a delay, and an agent closes its session right after pushing. */
export const SESSION_GRACE_MS = 5 * 60_000;

/** When shipgate received the first push that brought a commit to a branch (migration 025). */
export interface CommitArrival {
  sha: string;
  branch: string;
  arrived_at: string;
}

/** An agent session of the commit's repository, as coverage needs it. */
export interface SessionFacts {
  /** The session's id, which is its execution's. */
  id: string;
  branch: string | null;
  status: ExecutionStatus;
  verdict: Verdict | null;
  started_at: string;
  /** When it ended (closed, expired on a request, cancelled); null while it runs. */
  finished_at: string | null;
  expires_at: string;
  /** Calls denied so far, and whether the session's policy makes a denied call a violation. */
  denied_calls: number;
  denied_call_severity: 'warning' | 'blocking';
  /** Its allowed, completed shell calls whose command mentions a push (a coding agent's hooks); absent: none read. */
  pushes?: RecordedShellCall[];
}

/** A completed shell call of a session, as recorded: when it was asked for and how long it ran. */
export interface RecordedShellCall {
  seq: number;
  tool: string;
  command: string;
  created_at: string;
  duration_ms: number;
}

/** How much of a push's command line the decision shows. */
const MAX_COMMAND_CHARS = 300;

/**
 * The session's governed `git push` that brought a commit arriving at `arrivedAt`: a push call
 * that started before it and ended no more than the grace before it (GitHub delivers pushes with
 * a delay); the latest such call. Null when none (the commit is still the session's, by its window).
 */
function pushCallOf(pushes: readonly RecordedShellCall[] | undefined, arrivedAt: number): SessionCover['call'] | null {
  const candidates = (pushes ?? []).filter((p) => {
    const started = Date.parse(p.created_at);
    return isShellTool(p.tool) && runsGitPush(p.command) && started <= arrivedAt && arrivedAt <= started + p.duration_ms + SESSION_GRACE_MS;
  });
  const last = candidates.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.seq - a.seq)[0];
  // The command is shown to whoever reads the decision and on GitHub: secrets in it (a token in a URL) are redacted.
  return last ? { seq: last.seq, tool: last.tool, command: redactSecrets(last.command).slice(0, MAX_COMMAND_CHARS) } : null;
}

/** What the decision read about the pull request's commits: their arrivals, and the sessions that may cover them. */
export interface SessionCoverageFacts {
  arrivals: CommitArrival[];
  sessions: SessionFacts[];
}

/**
 * An agent session as the database reports it: its policy's name, and what the stored policy of
 * that name and version says of a denied call (its `denied_call_severity` as stored; null when no
 * such policy is stored, as for a built-in one).
 */
export type SessionRecord = Omit<SessionFacts, 'denied_call_severity'> & { policy_name: string; stored_severity: string | null };

/** The arrivals of a pull request's commits and the sessions that may cover them, as the database reports them. */
export interface SessionCoverageRecords {
  arrivals: CommitArrival[];
  sessions: SessionRecord[];
}

/**
 * Whether a denied call of a session violates its policy: a built-in policy says so by its name,
 * a custom one by what is stored; a policy that cannot be found counts denied calls as violations.
 */
export function deniedCallSeverity(policyName: string, storedSeverity: string | null): 'warning' | 'blocking' {
  return builtInPolicy(policyName)?.denied_call_severity ?? (storedSeverity === 'warning' ? 'warning' : 'blocking');
}

/** The coverage facts of what the database reported, each session with its policy's severity. */
export function sessionCoverageOf(records: SessionCoverageRecords): SessionCoverageFacts {
  return {
    arrivals: records.arrivals,
    sessions: records.sessions.map(({ policy_name, stored_severity, ...s }) => ({
      ...s,
      denied_call_severity: deniedCallSeverity(policy_name, stored_severity),
    })),
  };
}

/**
 * A session counts while it runs, unless a call it made was denied under a blocking policy (its
 * verdict at close will be non-compliant); once closed, by its verdict. A cancelled session covers
 * nothing: it was stopped before it ended, so it has no verdict and no execution certificate over
 * its calls.
 */
export function sessionCounts(s: SessionFacts): boolean {
  if (s.status === 'running') return !(s.denied_calls > 0 && s.denied_call_severity === 'blocking');
  return s.status === 'completed' && s.verdict === 'compliant';
}

/** The session's window: from its start until it ended (at the latest its expiry) plus the grace. */
function windowOf(s: Pick<SessionFacts, 'started_at' | 'finished_at' | 'expires_at'>): [number, number] {
  const expires = Date.parse(s.expires_at);
  const end = s.finished_at === null ? expires : Math.min(Date.parse(s.finished_at), expires);
  return [Date.parse(s.started_at), end + SESSION_GRACE_MS];
}

/**
 * The session covering commit `sha`: one of the repository's sessions that counts, during whose
 * window a push brought the commit (to the session's branch, when it names one), and that opened
 * before the commit first reached the repository, on any branch (a commit that was already there
 * is not the session's work because it is pushed again). The earliest such session; null when none.
 */
export function coveringSession(sha: string, facts: SessionCoverageFacts): SessionCover | null {
  const arrivals = facts.arrivals.filter((a) => a.sha === sha).map((a) => ({ branch: a.branch, at: Date.parse(a.arrived_at) }));
  if (arrivals.length === 0) return null;
  const first = Math.min(...arrivals.map((a) => a.at));
  const covering = facts.sessions
    .filter(sessionCounts)
    .filter((s) => {
      const [start, end] = windowOf(s);
      const branch = s.branch === null ? null : normalizeRefName(s.branch);
      return first >= start && arrivals.some((a) => a.at <= end && (branch === null || a.branch === branch));
    })
    .sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const s = covering[0];
  if (!s) return null;
  const branch = s.branch === null ? null : normalizeRefName(s.branch);
  const call = pushCallOf(s.pushes, Math.min(...arrivals.filter((a) => branch === null || a.branch === branch).map((a) => a.at)));
  return { kind: 'agent_session', session_id: s.id, execution_id: s.id, ...(call ? { call } : {}) };
}

/**
 * Whether a session's change makes what it covers shrink, so the check runs of the pull requests
 * it covered are re-posted at once: its first call denied under a blocking policy, its end with a
 * verdict other than `compliant` (closed or expired), or its cancellation.
 */
export function coverageShrinksOn(
  change: { denied: 'warning' | 'blocking' } | { ended: ExecutionStatus; verdict: Verdict | null },
): boolean {
  if ('denied' in change) return change.denied === 'blocking';
  return change.ended === 'cancelled' || (change.ended === 'completed' && change.verdict !== 'compliant');
}

/** An open pull request's head and when pushes brought it to the repository (migration 025). */
export interface OpenHead {
  head_sha: string;
  installation_id: number | null;
  arrivals: Omit<CommitArrival, 'sha'>[];
}

/**
 * The open pull requests' heads whose commit arrived while the session was open (its window, on
 * its branch when it names one) and not before it opened: those the session may have covered,
 * whose evaluation its change can turn (docs/mcp-gateway.md, "Sessions and the commits they produced").
 */
export function headsToRecheck(
  session: Pick<SessionFacts, 'branch' | 'started_at' | 'finished_at' | 'expires_at'>,
  heads: readonly OpenHead[],
): OpenHead[] {
  const [start, end] = windowOf(session);
  const branch = session.branch === null ? null : normalizeRefName(session.branch);
  return heads.filter((h) => {
    const at = h.arrivals.map((a) => ({ branch: a.branch, at: Date.parse(a.arrived_at) }));
    if (at.length === 0 || Math.min(...at.map((a) => a.at)) < start) return false;
    return at.some((a) => a.at <= end && (branch === null || a.branch === branch));
  });
}
