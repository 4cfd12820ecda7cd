#!/usr/bin/env node
// Runs a TypeScript file directly through tsx (benchmarks, scripts): node bin/run-ts.js <file.ts> [args...]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const file = process.argv[2];
if (!file) {
  console.error('usage: node bin/run-ts.js <file.ts> [args...]');
  process.exit(2);
}
register();
// The script sees itself as argv[1] and its own arguments from argv[2], as if run directly.
process.argv.splice(1, 2, path.resolve(file));
await import(pathToFileURL(path.resolve(file)).href);
