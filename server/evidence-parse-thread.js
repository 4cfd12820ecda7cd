// The entry of a parse thread (server/thread-pool-evidence-parser.ts): evidence documents (the default task) and JSON
// request bodies over 1 MiB (`parseJsonBody`). A worker thread does not inherit the TypeScript loader of its process
// (tsx, registered by bin/shipgate.js and bin/run-ts.js; jest's ts-jest never reaches a real thread), so each thread
// registers tsx itself before it loads the TypeScript tasks.
import { register } from 'tsx/esm/api';

register();
const { parseEvidenceTask } = await import('./evidence-parse-task.ts');
const { parseJsonBodyTask } = await import('./json-body-task.ts');

export default parseEvidenceTask;
export const parseJsonBody = parseJsonBodyTask;
