// `shipgate hook <agent>` (docs/agent-hooks.md, "The shipgate hook command"): a coding agent's
// command hook. It runs once per tool call, so it is plain JavaScript on Node's own modules:
// neither tsx nor the server's modules are loaded (it starts in the time `node` itself takes).
import http from 'node:http';
import https from 'node:https';

export const HOOK_USAGE = 'hook <claude-code|copilot|gemini>';
const AGENTS = ['claude-code', 'copilot', 'gemini'];
/** What the agents read as "block this tool call" from a command hook (stderr is the reason). */
const BLOCK = 2;

/** @param {NodeJS.ReadableStream} stream */
async function readAll(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * POSTs the hook input as it came. No timeout of its own: a held (asked) call is answered when a
 * person decides or the policy's timeout denies it, and the agent's hook timeout bounds the wait.
 * @returns {Promise<{ status: number, body: string }>}
 */
function post(url, token, body) {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          Authorization: `Bearer ${token}`,
          'User-Agent': 'shipgate-hook',
        },
      },
      (response) => readAll(response).then((text) => resolve({ status: response.statusCode ?? 0, body: text }), reject),
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The reason of a denial in any agent's answer format, or null when it allows or has no opinion. */
export function deniedReason(answer) {
  if (!answer || typeof answer !== 'object') return null;
  const claude = answer.hookSpecificOutput;
  if (claude && typeof claude === 'object' && claude.permissionDecision === 'deny')
    return String(claude.permissionDecisionReason ?? 'denied by shipgate');
  if (answer.permissionDecision === 'deny') return String(answer.permissionDecisionReason ?? 'denied by shipgate');
  if (answer.decision === 'deny' || answer.decision === 'block') return String(answer.reason ?? 'denied by shipgate');
  return null;
}

function detailOf(text) {
  try {
    const detail = JSON.parse(text).detail;
    return typeof detail === 'string' ? detail : JSON.stringify(detail);
  } catch {
    return text.slice(0, 300);
  }
}

/**
 * Forwards the hook input on `stdin` to `$SHIPGATE_URL/api/v1/hooks/<agent>` and prints the answer.
 * Exit 0: allowed, or no opinion. Exit 2 (the agents' "block"): denied, or no verdict at all
 * (unset configuration, shipgate unreachable, any answer but 200): it fails closed.
 * @returns {Promise<number>}
 */
export async function hookCommand(
  args,
  { stdin = process.stdin, stdout = process.stdout, stderr = process.stderr, env = process.env } = {},
) {
  const block = (reason) => {
    stderr.write(`shipgate: ${reason}\n`);
    return BLOCK;
  };
  const [agent] = args;
  if (!AGENTS.includes(agent)) return block(`usage: shipgate ${HOOK_USAGE} (got ${agent ?? 'no agent'}); the tool call is blocked.`);
  const base = (env.SHIPGATE_URL ?? '').replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  if (!base) return block('SHIPGATE_URL is not set: no verdict, so the tool call is blocked.');
  if (!env.SHIPGATE_TOKEN) return block('SHIPGATE_TOKEN is not set: no verdict, so the tool call is blocked.');
  const input = await readAll(stdin);
  let answer;
  try {
    answer = await post(`${base}/api/v1/hooks/${agent}`, env.SHIPGATE_TOKEN, input);
  } catch (error) {
    return block(`shipgate at ${base} could not be reached (${error?.code ?? error?.message ?? error}): the tool call is blocked.`);
  }
  if (answer.status !== 200)
    return block(`shipgate answered ${answer.status} (${detailOf(answer.body)}): no verdict, so the tool call is blocked.`);
  let parsed;
  try {
    parsed = answer.body ? JSON.parse(answer.body) : {};
  } catch {
    return block('shipgate answered with no JSON: no verdict, so the tool call is blocked.');
  }
  stdout.write(`${JSON.stringify(parsed)}\n`);
  const reason = deniedReason(parsed);
  if (reason === null) return 0;
  stderr.write(`${reason}\n`);
  return BLOCK;
}
