/** What a built-in tool of a coding agent does, as shipgate reads its input (core/hooks/tool-action.ts). */
export type Kind = 'shell' | 'read' | 'write' | 'search' | 'fetch' | 'web_search' | 'agent';

/** Claude Code's, Copilot CLI's and Gemini CLI's built-in tools (their names do not collide). */
const TOOL_KINDS: Record<string, Kind> = {
  Bash: 'shell',
  bash: 'shell',
  shell: 'shell',
  write_bash: 'shell',
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
  apply_patch: 'write',
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

/** A tool's kind; the text editor tool's `view` command only reads. */
export function kindOf(tool: string, input: Record<string, unknown>): Kind | undefined {
  return tool === 'str_replace_editor' && input.command === 'view' ? 'read' : TOOL_KINDS[tool];
}

/** Tools that change a file by replacing text in it (Claude's Edit, Copilot's edit, Gemini's replace), not by writing it whole. */
const EDITS = new Set(['Edit', 'MultiEdit', 'NotebookEdit', 'edit', 'str_replace_editor', 'replace']);

/**
 * Whether a call edits its file: an edit matches its old text against the file (a wrong guess is
 * answered as not found), so it reads the file as well as writing it.
 */
export const edits = (tool: string, input: Record<string, unknown>): boolean => EDITS.has(tool) && input.command !== 'create';
