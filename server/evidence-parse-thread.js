// The entry of an evidence parse thread (server/thread-pool-evidence-parser.ts). A worker thread does not inherit the
// TypeScript loader of its process (tsx, registered by bin/shipgate.js and bin/run-ts.js; jest's ts-jest never reaches
// a real thread), so each thread registers tsx itself before it loads the TypeScript task.
import { register } from 'tsx/esm/api';

register();
const { parseEvidenceTask } = await import('./evidence-parse-task.ts');

export default parseEvidenceTask;
