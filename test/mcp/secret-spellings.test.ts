import { secretSpellings } from '../../core/mcp/secret-spellings.js';

const SECRET = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a';

describe("a secret's spellings", () => {
  it.each([0, 1, 2, 3, 4, 5])('find its base64, standard and URL-safe, after %i other bytes', (before) => {
    const text = `${'{"a":"'.slice(0, before)}${SECRET}","b":1}`;
    const spellings = secretSpellings(SECRET);
    for (const encoding of ['base64', 'base64url'] as const) {
      const encoded = Buffer.from(text).toString(encoding);
      expect(spellings.some((spelling) => encoded.includes(spelling))).toBe(true);
    }
  });

  it('find it as hex and percent-encoded, and keep short spellings out', () => {
    const spellings = secretSpellings('a b/c?d=e&f');
    expect(spellings).toContain('a%20b%2Fc%3Fd%3De%26f');
    expect(spellings).toContain(Buffer.from('a b/c?d=e&f').toString('hex'));
    expect(spellings.every((spelling) => spelling === 'a b/c?d=e&f' || spelling.length >= 12)).toBe(true);
    expect(secretSpellings(SECRET)[0]).toBe(SECRET);
  });
});
