#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so `npm start` needs no build step.
// `shipgate hook` runs once per tool call of a coding agent: it loads neither tsx nor the server.
if (process.argv[2] === 'hook') {
  const { hookCommand } = await import('./hook-command.js');
  process.exitCode = await hookCommand(process.argv.slice(3));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../server/cli.ts');
}
