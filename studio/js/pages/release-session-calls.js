import { ApiError, getJson } from '../api.js';
import { cell, h, link, pill } from '../dom.js';
import { person } from '../format.js';

/** @import { Child, Execution, Policy, ReleaseDecision } from '../../types.js' */

/** @typedef {Execution['tool_calls'][number]} ToolCall */
/**
 * A session governing commits of the change, and its calls that pushed some: seq -> the call as
 * the decision names it (`governed_by.call`) and the commits it pushed, as shown.
 * @typedef {{ executionId: string, pushes: Map<number, { command: string, commits: string[] }> }} GoverningSession
 */

/**
 * The agent sessions that govern the pull request's commits (the decision's `governed_by`), each
 * with the calls that pushed a commit.
 * @param {ReleaseDecision} d
 * @returns {GoverningSession[]}
 */
function governingSessions(d) {
  /** @type {Map<string, GoverningSession>} */
  const sessions = new Map();
  for (const commit of d.authorship.commits) {
    const by = commit.governed_by;
    if (by?.kind !== 'agent_session') continue;
    const session = sessions.get(by.execution_id) ?? { executionId: by.execution_id, pushes: new Map() };
    sessions.set(by.execution_id, session);
    const named = commit.sha === d.commit_sha ? `${commit.sha.slice(0, 12)} (this commit)` : commit.sha.slice(0, 12);
    if (by.call) {
      const pushed = session.pushes.get(by.call.seq) ?? { command: by.call.command, commits: [] };
      session.pushes.set(by.call.seq, { ...pushed, commits: [...pushed.commits, named] });
    }
  }
  return [...sessions.values()];
}

/**
 * What a call did, in the capability's words (docs/agent-hooks.md, "Tools and capabilities"):
 * a shell call's command line, else the file it read or wrote, the host it reached, the tool.
 * @param {{ arguments: unknown, capability: string | null }} call
 * @returns {Child}
 */
function whatItDid(call) {
  const args = /** @type {Record<string, unknown> | null} */ (typeof call.arguments === 'object' ? call.arguments : null);
  if (typeof args?.command === 'string') return h('code.command', {}, args.command);
  const capability = call.capability ?? '';
  for (const [prefix, verb] of /** @type {const} */ ([
    ['fs:write:', 'writes '],
    ['fs:read:', 'reads '],
    ['network:', 'reaches '],
  ]))
    if (capability.startsWith(prefix)) return h('span', {}, verb, h('code', {}, capability.slice(prefix.length)));
  return h('code', {}, capability || '—');
}

/**
 * A denial's reason, and for `tool_rule:<index>` the rule itself as the session's policy version
 * states it (GET /policies/{name}?version=), e.g. "read .env* -> deny".
 * @param {ToolCall} call
 * @param {Policy['tool_rules']} rules
 */
function denialWhy(call, rules) {
  const index = /^tool_rule:(\d+)$/.exec(call.reason ?? '')?.[1];
  const rule = index === undefined ? undefined : rules?.[Number(index)];
  const words = rule
    ? ` (rule ${Object.entries(rule.match)
        .map(([kind, glob]) => `${kind} ${glob}`)
        .join(' and ')} -> ${rule.verdict})`
    : '';
  const denier = call.denied_by ?? null;
  return [
    h('span.reason', {}, `denied: ${call.reason ?? 'no reason recorded'}${words}`),
    h('span.muted', {}, ` on ${call.capability ?? '—'}`),
    denier
      ? h('span.denial', {}, ' by ', person({ id: denier.id, name: denier.name }), denier.reason ? [': ', h('q', {}, denier.reason)] : '')
      : '',
  ];
}

/**
 * The distinct files the session's allowed calls read (`fs:read:`) or wrote (`fs:write:`), by their capability.
 * @param {ToolCall[]} calls
 * @param {'fs:read:' | 'fs:write:'} prefix
 */
const filesOf = (calls, prefix) => [
  ...new Set(
    calls.filter((c) => c.verdict === 'allowed' && c.capability?.startsWith(prefix)).map((c) => (c.capability ?? '').slice(prefix.length)),
  ),
];

/** "1 file", "2 files": @param {number} n @param {string} one */
const count = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** @param {string[]} files */
const fileList = (files) => (files.length ? [' (', files.map((f, i) => [i ? ', ' : '', h('code', {}, f)]), ')'] : '');

/**
 * One call's row: the pushing call marked, a denial with its reason (and the person who denied a
 * held call, with their words), an approval with its approver.
 * @param {ToolCall} call
 * @param {Execution} e
 * @param {string[] | undefined} pushed the commits it pushed
 * @param {Policy['tool_rules']} rules
 */
function callRow(call, e, pushed, rules) {
  const approver = call.approved_by ?? null;
  /** @type {Child[]} */
  const why = [];
  if (call.verdict === 'denied') why.push(denialWhy(call, rules));
  else if (approver) why.push(h('span.approval', {}, 'approved by ', person({ id: approver.id, name: approver.name })));
  else why.push(h('span.muted', {}, 'allowed by policy'));
  if (pushed) why.push(h('strong.pushed-mark', {}, ` · pushed ${pushed.join(', ')}`));
  return h(
    `tr${pushed ? '.pushed-call' : ''}`,
    { dataset: { seq: String(call.seq) } },
    cell('#', String(call.seq)),
    cell('Tool', h('code', {}, call.tool), call.agent_id ? h('span.muted', {}, ` sub-agent ${call.agent_id}`) : null),
    cell('What', whatItDid(call)),
    cell('Verdict', pill(call.verdict)),
    cell('Why', why),
  );
}

/** What the session did, counted: commands run, files read and written, denials, approvals. @param {Execution} e */
function summary(e) {
  const calls = e.tool_calls;
  const commands = calls.filter((c) => c.verdict === 'allowed' && c.capability === 'shell:exec').length;
  const read = filesOf(calls, 'fs:read:');
  const written = filesOf(calls, 'fs:write:');
  const denied = calls.filter((c) => c.verdict === 'denied').length;
  const approved = calls.filter((c) => c.approved_by).length;
  return h(
    'p.session-summary',
    {},
    `${count(commands, 'command')} run, ${count(read.length, 'file')} read`,
    fileList(read),
    `, ${count(written.length, 'file')} written`,
    fileList(written),
    `, ${denied} denied, ${approved} approved by a person.`,
  );
}

/**
 * @param {Execution} e
 * @param {GoverningSession['pushes']} pushes
 * @param {Policy['tool_rules']} rules
 */
function callsTable(e, pushes, rules) {
  if (e.tool_calls.length === 0) return h('p.muted', {}, 'No calls recorded.');
  const headers = ['#', 'Tool', 'What', 'Verdict', 'Why'];
  return h(
    'table.grid.session-calls',
    {},
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headers.map((name) => h('th', {}, name)),
      ),
    ),
    h(
      'tbody',
      {},
      e.tool_calls.map((call) => callRow(call, e, pushes.get(call.seq)?.commits, rules)),
    ),
  );
}

/** Calls allowed whose post never came (the agent stopped): not covered by any certificate. @param {Execution} e */
function incompleteCalls(e) {
  const open = e.incomplete_tool_calls ?? [];
  if (open.length === 0) return null;
  return [
    h('h4', {}, 'Started, never finished'),
    h(
      'ul.incomplete-calls',
      {},
      open.map((c) =>
        h('li', {}, h('code', {}, c.tool), ' ', whatItDid(c), h('span.muted', {}, ' (no post hook: no certificate covers it)')),
      ),
    ),
  ];
}

/**
 * The tool rules of the policy version the session ran under, when a call was denied by one
 * (the session's record names the rule by index only); undefined when not needed or unreadable.
 * @param {Execution} e
 * @param {AbortSignal} signal
 */
async function toolRulesOf(e, signal) {
  if (!e.tool_calls.some((c) => c.reason?.startsWith('tool_rule:'))) return undefined;
  const query = new URLSearchParams({ version: String(e.policy.version) });
  /** @type {Promise<Policy>} */
  const policy = getJson(`policies/${encodeURIComponent(e.policy.name)}?${query}`, { signal });
  return (await policy.catch(() => null))?.tool_rules;
}

/**
 * @param {GoverningSession} session
 * @param {AbortSignal} signal
 */
async function sessionCalls(session, signal) {
  const title = h('h3', {}, 'Session ', link(`#/executions/${session.executionId}`, session.executionId.slice(0, 8)));
  try {
    /** @type {Execution} */
    const e = await getJson(`executions/${session.executionId}`, { signal });
    const rules = await toolRulesOf(e, signal);
    return h(
      'section.agent-session',
      { dataset: { executionId: session.executionId } },
      h(
        'h3',
        {},
        'Session ',
        link(`#/executions/${e.id}`, e.task || e.id.slice(0, 8)),
        h('span.muted', {}, ` of ${e.owner_name ?? 'its owner'} `),
        pill(e.status),
      ),
      summary(e),
      callsTable(e, session.pushes, rules),
      incompleteCalls(e),
    );
  } catch (error) {
    if (signal.aborted) throw error;
    const words =
      error instanceof ApiError && error.status === 404
        ? 'Its calls are shown to the session’s owner, ADMIN and AUDITOR.'
        : `Its calls could not be read: ${error instanceof Error ? error.message : String(error)}`;
    // What the decision itself says of the session stays visible: the calls that pushed.
    const pushes = [...session.pushes].map(([seq, p]) =>
      h('li', {}, `call ${seq} `, h('code.command', {}, p.command), ` pushed ${p.commits.join(', ')}`),
    );
    return h(
      'section.agent-session',
      { dataset: { executionId: session.executionId } },
      title,
      pushes.length ? h('ul.session-pushes', {}, pushes) : null,
      h('p.muted', {}, words),
    );
  }
}

/**
 * The calls of each agent session that governs the change (docs/studio.md): commands, files
 * read and written, denials with their reason, approvals with the approver, the pushing call marked.
 * Null when no session governs a commit of the change.
 * @param {ReleaseDecision} d
 * @param {AbortSignal} signal
 */
export async function sessionCallsSection(d, signal) {
  const sessions = governingSessions(d);
  if (sessions.length === 0) return null;
  return h('div', { id: 'agent-sessions' }, h('h2', {}, 'Agent sessions'), await Promise.all(sessions.map((s) => sessionCalls(s, signal))));
}
