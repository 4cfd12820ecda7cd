import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json.js';
import { redactJson } from '../../core/agent/redact-json.js';
import { RESPONSE_REDACTED_WHOLE_BYTES, responseRecord } from '../../core/hooks/response-record.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

describe('what a post records of a tool\'s response (docs/agent-hooks.md, "Records")', () => {
  it('a response up to 256 KiB: the digest of it redacted whole, and its first 4 KiB redacted', () => {
    const response = { file: { content: `token ${TOKEN}` }, lines: Array.from({ length: 100 }, (_, i) => `line ${i}`) };
    const { digest, output } = responseRecord(['secrets'], response);
    expect(digest).toBe(sha256(canonicalJson(redactJson(['secrets'], response))));
    expect(output).not.toContain(TOKEN);
    expect(output).toContain('"line 0"');
  });

  it('a larger one: the digest of its JSON text as sent, its first 4 KiB redacted, not redacted whole', () => {
    const response = [{ note: `token ${TOKEN}` }, ...Array.from({ length: 200_000 }, (_, i) => ({ id: i, name: `item-${i}`, ok: true }))];
    const text = JSON.stringify(response);
    expect(text.length).toBeGreaterThan(RESPONSE_REDACTED_WHOLE_BYTES);
    const { digest, output } = responseRecord(['secrets'], response);
    expect(digest).toBe(sha256(text));
    expect(output).not.toContain(TOKEN);
    expect(output.startsWith('[{"note":"token ')).toBe(true);
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(4096);
  });

  it('a large string response is kept as itself, its start redacted', () => {
    const response = `${TOKEN}\n${'x'.repeat(RESPONSE_REDACTED_WHOLE_BYTES)}`;
    const { digest, output } = responseRecord(['secrets'], response);
    expect(digest).toBe(sha256(JSON.stringify(response)));
    expect(output).not.toContain(TOKEN);
    expect(output.endsWith('xxxx')).toBe(true);
  });
});
