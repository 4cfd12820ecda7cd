import fc from 'fast-check';
import { clipToBytes, fitParts, utf8Bytes } from '../../core/github/fit-to-bytes.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const anyText = fc.string({ unit: 'binary', maxLength: 60 });

describe('fitting text into GitHub’s limits, in bytes of UTF-8', () => {
  it('counts bytes as UTF-8 does, astral characters and lone surrogates included', () => {
    fc.assert(fc.property(anyText, (text) => utf8Bytes(text) === bytes(text)));
  });

  it('clips between characters: within the limit, never half a surrogate pair, "…" when cut', () => {
    expect(clipToBytes('🚀🚀🚀', 11)).toBe('🚀🚀…');
    expect(clipToBytes('🚀🚀🚀', 10)).toBe('🚀…');
    expect(clipToBytes('ééé', 6)).toBe('ééé');
    expect(clipToBytes('ééé', 5)).toBe('é…');
    fc.assert(
      fc.property(anyText, fc.nat(80), (text, max) => {
        const clipped = clipToBytes(text, max);
        expect(bytes(clipped)).toBeLessThanOrEqual(max);
        if (bytes(text) <= max) expect(clipped).toBe(text);
        else expect(text.startsWith(clipped.slice(0, -1)) || clipped === '').toBe(true);
      }),
    );
  });

  it('keeps the fixed lines, the first items that fit and a count of the rest, within the limit', () => {
    const more = (left: number) => `… and ${left} more`;
    fc.assert(
      fc.property(fc.array(anyText, { maxLength: 5 }), fc.array(anyText, { maxLength: 40 }), fc.nat(400), (fixed, items, slack) => {
        const max = utf8Bytes(fixed.join('\n')) + utf8Bytes(more(items.length)) + 2 + slack;
        const text = fitParts([{ lines: fixed }, { items, more }], max);
        expect(bytes(text)).toBeLessThanOrEqual(max);
        expect(text.startsWith(fixed.join('\n'))).toBe(true);
        const whole = [...fixed, ...items].join('\n');
        if (bytes(whole) <= max) expect(text).toBe(whole);
        else expect(text).toMatch(/… and \d+ more$/);
      }),
    );
  });

  it('a list that fits whole hands its reserved room on to the next', () => {
    const more = (left: number) => `+${left}`;
    const text = fitParts(
      [
        { items: ['a'], more },
        { items: ['b', 'c'], more },
      ],
      5,
    );
    expect(text).toBe('a\nb\nc');
  });
});
