import { generateKeyPairSync } from 'node:crypto';
import type { ExecutionJournal, FinishOutcome } from '../../../core/agent/journal.js';
import { canonicalDigest } from '../../../core/canonical-json.js';
import { createCertifier } from '../../../core/certificates/create-certifier.js';
import { createSigner } from '../../../core/certificates/create-signer.js';
import type { Policy } from '../../../core/policies/policy.js';
import { reportStep } from './report-step.js';

/** One journal implementation under test, with the two things the port itself does not do. */
export interface JournalSubject {
  journal: ExecutionJournal;
  policy: Policy;
  /** A new queued execution whose task is `task`, with a provider key override when given. */
  create(task: string, apiKey?: string): Promise<string>;
  /** Cancels it as DELETE /executions/{id} would. */
  cancel(id: string): Promise<void>;
  close?(): Promise<void>;
}

const certifier = createCertifier(createSigner(generateKeyPairSync('ed25519').privateKey));
const callOf = (seq: number) => ({ id: `c${seq}`, name: 'write_report', arguments: JSON.stringify({ name: `c${seq}` }) });

const done: FinishOutcome = { status: 'completed', verdict: 'compliant', output: 'done', error: null, certificate: null, violations: [] };

/**
 * The ExecutionJournal port's contract (core/agent/journal.ts), run against every implementation
 * so the in-memory journal the runtime tests use cannot drift from the PostgreSQL one.
 */
export function journalContract(name: string, open: () => Promise<JournalSubject>): void {
  describe(`${name}: the run journal contract`, () => {
    let subject: JournalSubject;
    let journal: ExecutionJournal;
    beforeAll(async () => {
      subject = await open();
      journal = subject.journal;
    });
    afterAll(async () => {
      await subject.close?.();
    });

    const step = (id: string, seq: number, text: string) => reportStep(id, subject.policy, seq, text);
    const transcriptOf = async (id: string) => (await journal.load(id)).transcript.map((m) => (m.role === 'tool' ? m.content : m.role));

    async function running(): Promise<string> {
      const id = await subject.create('Write two reports.');
      await journal.start(id);
      await journal.recordTurn(id, { role: 'assistant', content: null, tool_calls: [callOf(1), callOf(2)] }, 3);
      return id;
    }

    it('loads a new run: queued, its task as the first user message, its policy, nothing recorded', async () => {
      const id = await subject.create('Summarise the change.');
      const state = await journal.load(id);
      expect(state.execution).toMatchObject({ id, status: 'queued', cost_cents: 0, tool_calls: [], certificates: [], artifacts: [] });
      expect(state.transcript).toEqual([{ role: 'user', content: 'Summarise the change.' }]);
      expect(state.policy).toMatchObject({ name: subject.policy.name, version: subject.policy.version });
    });

    it('starts a queued or running run, and refuses a cancelled or finished one', async () => {
      const id = await subject.create('t');
      expect(await journal.start(id)).toBe(true);
      expect(await journal.start(id)).toBe(true);
      expect((await journal.load(id)).execution.status).toBe('running');
      expect((await journal.load(id)).execution.started_at).not.toBeNull();
      await subject.cancel(id);
      expect(await journal.start(id)).toBe(false);
      const finished = await subject.create('t');
      await journal.start(finished);
      await journal.finish(finished, done);
      expect(await journal.start(finished)).toBe(false);
    });

    it('records a turn: the assistant message appended and its cost added', async () => {
      const id = await running();
      await journal.recordTurn(id, { role: 'assistant', content: 'thinking', tool_calls: [] }, 4);
      expect(await transcriptOf(id)).toEqual(['user', 'assistant', 'assistant']);
      expect((await journal.load(id)).execution.cost_cents).toBe(7);
    });

    it('records a tool call with its answer, certificate and artifact, and a replayed seq not at all', async () => {
      const id = await running();
      const first = step(id, 1, 'first');
      await journal.recordToolCall(id, ...first);
      await journal.recordToolCall(id, ...step(id, 1, 'replayed'));
      await journal.recordToolCall(id, ...step(id, 2, 'second'));
      const { execution } = await journal.load(id);
      expect(execution.tool_calls.map((c) => [c.seq, c.output])).toEqual([
        [1, 'first'],
        [2, 'second'],
      ]);
      expect(execution.tool_calls[0]).toMatchObject({ call_id: 'c1', verdict: 'allowed', certificate_id: first[2]!.id });
      expect(execution.certificates[0]).toEqual(first[2]);
      expect(execution.artifacts.map((a) => [a.name, a.content])).toEqual([
        ['c1', 'first'],
        ['c2', 'second'],
      ]);
      expect(await transcriptOf(id)).toEqual(['user', 'assistant', 'first', 'second']);
    });

    it('records a denied call without certificate or artifact', async () => {
      const id = await running();
      const [entry, answer] = step(id, 1, 'DENIED: capability not granted');
      await journal.recordToolCall(
        id,
        { ...entry, verdict: 'denied', reason: 'capability_not_granted', certificate_id: null },
        answer,
        null,
        null,
      );
      const { execution } = await journal.load(id);
      expect(execution.tool_calls.map((c) => [c.seq, c.verdict, c.certificate_id])).toEqual([[1, 'denied', null]]);
      expect(execution.certificates).toEqual([]);
      expect(execution.artifacts).toEqual([]);
    });

    it('finishes once: outcome and execution certificate stored, key override erased, a second finish ignored', async () => {
      const id = await subject.create('t', 'sk-override-123456');
      expect((await journal.load(id)).apiKeyOverride).toBe('sk-override-123456');
      await journal.start(id);
      const certificate = certifier.certifyExecution({
        executionId: id,
        output: 'all done',
        verdict: 'compliant',
        violations: [],
        toolCallDigests: [],
        costCents: 0,
        policy: { name: subject.policy.name, version: subject.policy.version, digest: canonicalDigest(subject.policy) },
        upstream: [],
        prev: null,
      });
      await journal.finish(id, { ...done, output: 'all done', certificate });
      await journal.finish(id, { ...done, status: 'failed', verdict: 'non_compliant', output: null, violations: ['late'] });
      const state = await journal.load(id);
      expect(state.execution).toMatchObject({ status: 'completed', verdict: 'compliant', output: 'all done', error: null });
      expect(state.execution.finished_at).not.toBeNull();
      expect(state.execution.certificates).toEqual([certificate]);
      expect(state.apiKeyOverride).toBeUndefined();
    });

    it('records nothing more once the run has a verdict: its certificate covers exactly what was recorded', async () => {
      for (const status of ['completed', 'failed'] as const) {
        const id = await running();
        await journal.finish(id, { ...done, status });
        const before = await journal.load(id);
        await journal.recordTurn(id, { role: 'assistant', content: 'late', tool_calls: [] }, 50);
        await journal.recordToolCall(id, ...step(id, 1, 'late'));
        expect(await journal.load(id)).toEqual(before);
      }
    });

    it('still records the step in flight when the run is cancelled, and reports the cancellation', async () => {
      const id = await running();
      expect(await journal.isCancelled(id)).toBe(false);
      await subject.cancel(id);
      await journal.recordToolCall(id, ...step(id, 1, 'ran before the cancel was seen'));
      expect(await journal.isCancelled(id)).toBe(true);
      const { execution } = await journal.load(id);
      expect(execution.status).toBe('cancelled');
      expect(execution.tool_calls.map((c) => c.output)).toEqual(['ran before the cancel was seen']);
    });

    it('keeps a cancelled run cancelled when the runtime finishes it afterwards', async () => {
      const id = await running();
      await subject.cancel(id);
      await journal.finish(id, done);
      expect((await journal.load(id)).execution).toMatchObject({ status: 'cancelled', verdict: null });
    });
  });
}
