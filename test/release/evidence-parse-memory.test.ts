import { junitReport } from '../../bench/lib/junit-report.js';
import { EvidenceDocumentInvalid } from '../../core/errors.js';
import { threadPoolEvidenceParser } from '../../server/thread-pool-evidence-parser.js';

const MIB = 1024 * 1024;
const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

// docs/operations.md, "Documents are parsed off the event loop": a parse thread's heap is bounded.
describe('a parse thread’s memory', () => {
  const parser = threadPoolEvidenceParser({ deadlineSeconds: 60, threads: 1 });
  afterAll(() => parser.close());

  it('refuses a document whose reading needs more than the thread has (422: nothing stored), and reads the next one', async () => {
    // 10 MiB of unclosed tags: the XML validator kept one entry per open tag and took the server past 1.5 GB.
    const hostile = `<testsuite>${'<a>'.repeat(Math.floor((10 * MIB - 12) / 3))}`;
    const refused = await parser.read(base64(hostile), 'junit', []).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EvidenceDocumentInvalid);
    expect((refused as Error).message).toMatch(/needs more memory to read than the 256 MB one parse thread has/);
    const legit = await parser.read(base64(junitReport(1, 9 * MIB)), 'junit', []);
    expect(legit.summary).toMatchObject({ format: 'junit' });
  });
});
