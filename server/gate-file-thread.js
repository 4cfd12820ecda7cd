// The entry of the gate file thread (server/thread-pool-gate-file-reader.ts). A worker thread does not inherit the
// TypeScript loader of its process (tsx, registered by bin/shipgate.js and bin/run-ts.js; jest's ts-jest never reaches
// a real thread), so the thread registers tsx itself before it loads the TypeScript reader.
import { register } from 'tsx/esm/api';

register();
const { readGateFileText } = await import('../core/github/gate-file-problems.ts');

export default readGateFileText;
