import { MAX_SCANNED_BLOB_BYTES, redactToolResult } from '../../core/mcp/redact-tool-result.js';
import { AWS_KEY_AFTER_TAB, LEAKY_TEXT, TOKEN_IN_BLOB } from '../support/leaked-secrets.js';

const toBase64 = (bytes: string | Buffer) => (typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes).toString('base64');
const REDACTED_TEXT =
  'build log\n[REDACTED:secrets:github_token]\naws\t[REDACTED:secrets:aws_access_key]\n[REDACTED:secrets:private_key]\n';

describe('redactToolResult', () => {
  it('redacts every string of the content and the structured content, keys included', () => {
    const { result, unscannable } = redactToolResult(['secrets'], {
      content: [
        { type: 'text', text: LEAKY_TEXT, annotations: { audience: ['user'] } },
        { type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: LEAKY_TEXT } },
      ],
      structuredContent: { env: { [AWS_KEY_AFTER_TAB]: 'in a key', lines: [`\t${AWS_KEY_AFTER_TAB}`] } },
      isError: false,
    });
    expect(unscannable).toEqual([]);
    expect(result).toEqual({
      content: [
        { type: 'text', text: REDACTED_TEXT, annotations: { audience: ['user'] } },
        { type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: REDACTED_TEXT } },
      ],
      structuredContent: {
        env: { '[REDACTED:secrets:aws_access_key]': 'in a key', lines: ['\t[REDACTED:secrets:aws_access_key]'] },
      },
      isError: false,
    });
  });

  it("decodes a resource's blob and an image's or audio's data, redacts the text within, and encodes it again", () => {
    const clean = toBase64('nothing to see\n');
    const { result, unscannable } = redactToolResult(['secrets'], {
      content: [
        { type: 'resource', resource: { uri: 'file:///.env', blob: toBase64(`TOKEN=${TOKEN_IN_BLOB}`) } },
        { type: 'audio', data: toBase64(LEAKY_TEXT), mimeType: 'audio/wav' },
        { type: 'image', data: clean, mimeType: 'image/svg+xml' },
      ],
      isError: false,
    });
    expect(unscannable).toEqual([]);
    expect(result.content).toEqual([
      { type: 'resource', resource: { uri: 'file:///.env', blob: toBase64('TOKEN=[REDACTED:secrets:github_token]') } },
      { type: 'audio', data: toBase64(REDACTED_TEXT), mimeType: 'audio/wav' },
      { type: 'image', data: clean, mimeType: 'image/svg+xml' },
    ]);
  });

  it('names each base64 member it cannot scan, and leaves it as it is for the caller to decide', () => {
    const binary = toBase64(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]));
    const tooLarge = toBase64('a'.repeat(MAX_SCANNED_BLOB_BYTES + 1));
    const { result, unscannable } = redactToolResult(['pii'], {
      content: [
        { type: 'image', data: binary, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///x', blob: 'not base64!' } },
        { type: 'resource', resource: { uri: 'file:///y', blob: tooLarge } },
        { type: 'audio', data: 'QUJD', mimeType: 'audio/wav' },
      ],
      isError: false,
    });
    expect(unscannable).toEqual([
      'content[0].data: not UTF-8 text',
      'content[1].resource.blob: not base64',
      `content[2].resource.blob: larger than ${MAX_SCANNED_BLOB_BYTES} bytes`,
    ]);
    expect(result.content.map((item) => item.data ?? (item.resource as { blob: string }).blob)).toEqual([
      binary,
      'not base64!',
      tooLarge,
      'QUJD',
    ]);
  });
});
