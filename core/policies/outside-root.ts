/**
 * Whether a path a call names lies outside the repository root: paths inside are relative to it,
 * one outside stays absolute (core/hooks/path-readings.ts; docs/agent-hooks.md, "tool_rules").
 */
export const isOutsideRoot = (path: string): boolean => path.startsWith('/');
