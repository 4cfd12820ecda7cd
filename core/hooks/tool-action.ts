import { loosePath } from '../policies/loose-spelling.js';
import { upstreamToolCapability } from '../mcp/upstream-tool-capabilities.js';
import { commandForms, substitutesCommands } from './shell-command-forms.js';
import { shellFileAccess } from './shell-file-access.js';
import { newShellReadBudget, ShellLineTooLong, shellTokens, simpleCommands } from './shell-words.js';

/**
 * What one tool call of a coding agent does, in the policy's terms (docs/agent-hooks.md, "Tools
 * and capabilities"): the capabilities it needs, and what its `tool_rules` match on. Paths are
 * relative to the repository root (the hook input's `cwd`); one outside it stays absolute.
 */
export interface ToolAction {
  /** The tool as the agent named it (`Bash`, `run_shell_command`, `mcp__github__create_issue`). */
  tool: string;
  capabilities: string[];
  /** The command line of a shell call. */
  command?: string;
  /** The forms of that command line a `command` rule is matched against (shell-command-forms.ts); none for other tools. */
  commands: string[];
  /** Each simple command of that line in its own forms (an `allow` rule must cover every one). */
  simpleCommands: string[][];
  /** The line holds a command substitution, which no `allow` rule covers. */
  substitutes: boolean;
  reads: string[];
  writes: string[];
  hosts: string[];
  /** Why the input is not one the tool runs (a shell call without a command line, a file tool without a path): it is refused. */
  malformed?: string;
}

type Kind = 'shell' | 'read' | 'write' | 'search' | 'fetch' | 'web_search' | 'agent';

/** Claude Code's, Copilot CLI's and Gemini CLI's built-in tools (their names do not collide). */
const TOOL_KINDS: Record<string, Kind> = {
  Bash: 'shell',
  bash: 'shell',
  shell: 'shell',
  powershell: 'shell',
  run_shell_command: 'shell',
  Read: 'read',
  NotebookRead: 'read',
  view: 'read',
  read_file: 'read',
  read_many_files: 'read',
  Write: 'write',
  Edit: 'write',
  MultiEdit: 'write',
  NotebookEdit: 'write',
  create: 'write',
  edit: 'write',
  str_replace_editor: 'write',
  write_file: 'write',
  replace: 'write',
  Glob: 'search',
  Grep: 'search',
  LS: 'search',
  glob: 'search',
  grep: 'search',
  search_file_content: 'search',
  list_directory: 'search',
  WebFetch: 'fetch',
  web_fetch: 'fetch',
  WebSearch: 'web_search',
  google_web_search: 'web_search',
  web_search: 'web_search',
  Agent: 'agent',
  Task: 'agent',
  task: 'agent',
};

/** Whether the agent's tool runs shell commands (its `command` is a command line). */
export const isShellTool = (tool: string): boolean => TOOL_KINDS[tool] === 'shell';

/** Claude Code names an MCP tool `mcp__<server>__<tool>`. */
const MCP_PREFIX = 'mcp__';

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** `path` as an absolute POSIX path without `.`, `..` or repeated slashes. */
function normalPath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '' && part !== '.') parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** The path relative to `root` (POSIX), `.` for the root itself; a path outside it stays absolute. */
export function repositoryPath(root: string, path: string): string {
  const base = normalPath(root);
  const full = normalPath(path.startsWith('/') ? path : `${base}/${path}`);
  if (full === base) return '.';
  const prefix = base === '/' ? '/' : `${base}/`;
  return full.startsWith(prefix) ? full.slice(prefix.length) : full;
}

/** `C:\repo\.env` as POSIX: backslashes as separators, a drive's root absolute (`/C:/repo/.env`). */
const windowsPath = (path: string) => path.replace(/\\/g, '/').replace(/^([A-Za-z]:\/)/, '/$1');

/** A working directory only Windows spells: a drive (`C:\`, `C:/`) or a backslash. */
const isWindowsRoot = (root: string) => /^[A-Za-z]:[\\/]/.test(root) || root.includes('\\');

/**
 * The paths a call names, relative to `root`: as Windows reads them under a Windows working
 * directory; else as a POSIX system reads them and, for one holding a backslash, as Windows (or
 * Git Bash) reads it too (`x\..\.env` is `.env` there). Both are the call's: each must be granted
 * and covered by an `allow` rule, either may be refused (docs/agent-hooks.md, "Spellings the
 * agent's machine reads alike").
 */
export function repositoryPaths(root: string, path: string): string[] {
  if (isWindowsRoot(root)) return withCaseInsensitiveRoot(windowsPath(root), windowsPath(path));
  const posix = withCaseInsensitiveRoot(root, path);
  if (!path.includes('\\')) return posix;
  return [...new Set([...posix, ...withCaseInsensitiveRoot(root, windowsPath(path))])];
}

/**
 * The path relative to `root` and, for one outside it that is inside as a case-insensitive
 * filesystem reads the root's names (`/Users/Me/shop/.env` under `/users/me/shop`), relative to it
 * as well.
 */
function withCaseInsensitiveRoot(root: string, path: string): string[] {
  const exact = repositoryPath(root, path);
  if (!exact.startsWith('/')) return [exact];
  const base = normalPath(root).split('/');
  const full = exact.split('/');
  if (base.length === 1 || full.length <= base.length) return [exact];
  if (!base.every((name, i) => loosePath(name) === loosePath(full[i]))) return [exact];
  return [exact, full.slice(base.length).join('/')];
}

/** A command line's tokens and simple commands, or null when it holds more than shipgate reads (SHELL_READ_LIMITS). */
function readShellLine(command: string) {
  const budget = newShellReadBudget();
  try {
    const tokens = shellTokens(command, budget);
    return { tokens, commands: simpleCommands(tokens, budget) };
  } catch (error) {
    if (error instanceof ShellLineTooLong) return null;
    throw error;
  }
}

/** Every path a file tool's input names (Claude: `file_path`, `notebook_path`; Copilot: `path`; Gemini: `file_path`, `absolute_path`, `paths`, `include`). */
/**
 * The longest command line read (docs/agent-hooks.md, "Shell commands and files"): reading one
 * costs time in proportion to its length on the event loop, and an agent's hook input may be 8
 * MiB; a longer one is refused rather than read in part (what lies past a part would go unread).
 */
export const MAX_COMMAND_CHARS = 256 * 1024;
/** The longest path a file tool may name: Linux opens none longer (PATH_MAX). */
export const MAX_PATH_CHARS = 4096;

const PATH_FIELDS = ['file_path', 'notebook_path', 'absolute_path', 'path', 'dir_path'];
const LIST_FIELDS = ['paths', 'include'];

function inputPaths(input: Record<string, unknown>): string[] {
  const single = PATH_FIELDS.map((k) => str(input[k])).filter((p) => p !== undefined);
  const many = [input.paths, input.include].flatMap((list) =>
    Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [],
  );
  return [...single, ...many, ...(str(input.include) ? [str(input.include)!] : [])];
}

/** Why a file tool's input names no file it could run on: a path field that is no string, or none at all. */
function pathProblem(tool: string, input: Record<string, unknown>): string | undefined {
  const bad = PATH_FIELDS.find((k) => k in input && typeof input[k] !== 'string');
  if (bad) return `${tool}'s ${bad} must be a path`;
  const list = LIST_FIELDS.find(
    (k) => k in input && typeof input[k] !== 'string' && !(Array.isArray(input[k]) && input[k].every((p) => typeof p === 'string')),
  );
  if (list) return `${tool}'s ${list} must be paths`;
  const paths = inputPaths(input);
  if (paths.some((p) => p.length > MAX_PATH_CHARS)) return `${tool} names a path longer than ${MAX_PATH_CHARS} characters`;
  return paths.length === 0 ? `${tool} names no file` : undefined;
}

/** The host of a URL, or the text itself when it is none. */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** The URLs a fetch names: `url`, or those in Gemini's `prompt`. */
function inputUrls(input: Record<string, unknown>): string[] {
  const url = str(input.url);
  if (url) return [url];
  const prompt = str(input.prompt) ?? '';
  return prompt.split(/\s+/).filter((w) => w.startsWith('http://') || w.startsWith('https://'));
}

/**
 * The capabilities and matchable facts of one tool call: shell `shell:exec` (with the command
 * line, and the files it plainly reads or writes), reads `fs:read:<path>`, writes and edits
 * `fs:write:<path>`, searches `fs:read:<dir>`, fetches `network:<host>`, web searches
 * `network:web-search`, sub-agents `agent:spawn`, MCP tools `mcp:<server>/<tool>` (Claude's
 * `mcp__<server>__<tool>`, or any tool whose server and own name the agent reports), and any
 * other tool `tool:<name>`.
 */
export function toolAction(tool: string, input: Record<string, unknown>, cwd: string, mcp?: { server: string; tool?: string }): ToolAction {
  const action: ToolAction = { tool, capabilities: [], commands: [], simpleCommands: [], substitutes: false, reads: [], writes: [], hosts: [] };
  const rel = (path: string) => repositoryPaths(cwd, path);
  if (mcp?.tool) {
    action.capabilities.push(upstreamToolCapability(mcp.server, mcp.tool));
    return action;
  }
  if (tool.startsWith(MCP_PREFIX)) {
    const rest = tool.slice(MCP_PREFIX.length);
    const cut = rest.indexOf('__');
    const server = mcp?.server ?? (cut > 0 ? rest.slice(0, cut) : rest);
    const name = cut > 0 ? rest.slice(cut + 2) : rest;
    action.capabilities.push(upstreamToolCapability(server, name));
    return action;
  }
  switch (TOOL_KINDS[tool]) {
    case 'shell': {
      if (typeof input.command !== 'string' || input.command.trim() === '') action.malformed = `${tool} needs its command line as a string`;
      action.command = str(input.command) ?? '';
      if (action.command.length > MAX_COMMAND_CHARS) {
        action.malformed = `${tool}'s command line is longer than ${MAX_COMMAND_CHARS / 1024} KiB: write such content with a file tool`;
        action.capabilities.push('shell:exec');
        break;
      }
      const read = readShellLine(action.command);
      if (!read) {
        action.malformed = `${tool}'s command line ${new ShellLineTooLong().message}: write such content with a file tool`;
        action.capabilities.push('shell:exec');
        break;
      }
      const { tokens, commands } = read;
      const forms = commandForms(action.command, tokens, commands);
      action.commands = forms.forms;
      action.simpleCommands = forms.each;
      action.substitutes = substitutesCommands(action.command);
      const files = shellFileAccess(action.command, commands);
      const dir = str(input.directory) ?? str(input.dir_path);
      const inDir = (p: string) => rel(dir && !p.startsWith('/') ? `${dir}/${p}` : p);
      action.reads = files.reads.flatMap(inDir);
      action.writes = files.writes.flatMap(inDir);
      action.capabilities.push('shell:exec');
      break;
    }
    case 'read':
      action.malformed = pathProblem(tool, input);
      action.reads = inputPaths(input).flatMap(rel);
      action.capabilities.push(...action.reads.map((p) => `fs:read:${p}`));
      break;
    case 'write':
      action.malformed = pathProblem(tool, input);
      action.writes = inputPaths(input).flatMap(rel);
      action.capabilities.push(...action.writes.map((p) => `fs:write:${p}`));
      break;
    case 'search': {
      const dir = inputPaths(input)[0] ?? '.';
      action.reads = rel(dir);
      action.capabilities.push(...action.reads.map((p) => `fs:read:${p}`));
      // The files searched, as a glob names them (Claude's Grep `glob`): a read rule is matched against it as written.
      const glob = str(input.glob) ?? str(input.include);
      if (glob) action.reads.push(...rel(`${dir}/${glob}`));
      break;
    }
    case 'fetch':
      action.hosts = inputUrls(input).map(hostOf);
      action.capabilities.push(...action.hosts.map((h) => `network:${h}`));
      break;
    case 'web_search':
      action.capabilities.push('network:web-search');
      break;
    case 'agent':
      action.capabilities.push('agent:spawn');
      break;
    default:
      action.capabilities.push(`tool:${tool}`);
  }
  // A file tool without a path, a fetch without a URL: still a call that needs its kind's grant.
  if (action.capabilities.length === 0)
    action.capabilities.push(TOOL_KINDS[tool] === 'fetch' ? 'network:unknown' : `fs:${TOOL_KINDS[tool] === 'write' ? 'write' : 'read'}:.`);
  return action;
}
