import { canonicalDigest, canonicalJson, sha256Hex } from '../../core/canonical-json.js';

describe('canonicalJson', () => {
  it('matches the RFC 8785 serialisation example', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units as RFC 8785 prescribes', () => {
    const input = JSON.parse(
      '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One", "\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control", "\\u00f6": "Latin Small Letter O With Diaeresis"}',
    );
    const text = canonicalJson(input);
    const order = [
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ];
    const positions = order.map((name) => text.indexOf(`"${name}"`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('gives one form whatever the key order or whitespace, sorting nested objects too', () => {
    const a = { b: 1, a: { d: [1, { z: true, y: null }], c: 'x' } };
    const b = JSON.parse(' { "a" : { "c" : "x", "d" : [ 1 , { "y" : null , "z" : true } ] } , "b" : 1 } ');
    expect(canonicalJson(a)).toBe('{"a":{"c":"x","d":[1,{"y":null,"z":true}]},"b":1}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
    expect(canonicalDigest(a)).toBe(canonicalDigest(b));
  });

  it('omits undefined members like a JSON round trip, and refuses numbers JSON cannot hold', () => {
    const value = { a: undefined, b: [undefined], c: new Date('2024-01-02T03:04:05.000Z'), d: -0 };
    expect(canonicalJson(value)).toBe(canonicalJson(JSON.parse(JSON.stringify(value))));
    expect(canonicalJson(value)).toBe('{"b":[null],"c":"2024-01-02T03:04:05.000Z","d":0}');
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/non-finite number at \$\.n/);
    expect(() => canonicalJson([Infinity])).toThrow(/non-finite/);
  });

  it('hashes UTF-8 text and bytes with SHA-256', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(Buffer.from('abc'))).toBe(sha256Hex('abc'));
    expect(canonicalDigest({ b: 2, a: 1 })).toBe(sha256Hex('{"a":1,"b":2}'));
  });
});
