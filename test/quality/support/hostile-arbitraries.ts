import fc from 'fast-check';

/**
 * Strings a careless handler chokes on: huge, control characters, NUL, lone surrogates, injection.
 * `hugeUpTo` bounds the longest: bodies take 70,000 characters, URLs only what Node accepts in a request line.
 */
export function hostileText(hugeUpTo: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.constantFrom(
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '\ud800',
      '\udfff\ud800',
      '%',
      '%zz',
      '%00',
      '..',
      '../../etc/passwd',
      '*',
      ':',
      '\\',
      'null',
      'undefined',
      'NaN',
      '-1',
      '1e309',
      '0x10',
      "' OR 1=1 --",
      '"; DROP TABLE users; --',
      '<script>alert(1)</script>',
      '${7*7}',
      '__proto__',
      'constructor',
      'HEAD',
      'a/b',
      'a/b/c',
      'https://github.com/a/b',
      '00000000-0000-0000-0000-000000000000',
      '\u202e\u200b\ufeff',
      '😀'.repeat(50),
    ),
    fc.integer({ min: Math.min(1000, hugeUpTo), max: hugeUpTo }).map((n) => 'x'.repeat(n)),
  );
}

export const hostileString = hostileText(70_000);

/** Characters that pass length checks but trip storage or encoding: NUL, a lone surrogate, RTL override, emoji. */
const spliceable = fc.constantFrom('\u0000', '\u0000', '\ud800', '\u202e', '\ufeff', '😀', '\n', "'", '%');

/** Plausible text with one troublesome character spliced in: likely to pass validation and reach the store. */
export function spliced(valid: string): fc.Arbitrary<string> {
  return fc.tuple(spliceable, fc.nat()).map(([c, at]) => {
    const i = valid.length ? at % (valid.length + 1) : 0;
    return valid.slice(0, i) + c + valid.slice(i);
  });
}

/** Numbers at and past every edge, as JSON can carry them. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    0.5,
    -0.5,
    99,
    100,
    101,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53,
    2 ** 63,
    -(2 ** 64),
    1e308,
    -1e308,
    5e-324,
    Number.MAX_SAFE_INTEGER + 2,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Arrays and objects nested `depth` deep: recursion and stack-depth bugs. */
export const deeplyNested: fc.Arbitrary<unknown> = fc.tuple(fc.integer({ min: 50, max: 3000 }), fc.boolean()).map(([depth, asArray]) => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { nested: value };
  return value;
});

/** Any JSON value, including the nasty ones. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { '': null }) },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: deeplyNested },
  { weight: 1, arbitrary: fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 5 }) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 300 }) },
);

const cursorPart = fc.oneof(hostileText(100), hostileNumber, fc.jsonValue({ maxDepth: 2 }));

/** Cursors that look issued but are not: valid base64url around wrong JSON, or random text. */
export const garbageCursor: fc.Arbitrary<string> = fc.oneof(
  hostileText(3000),
  fc.base64String({ maxLength: 80 }),
  fc.tuple(cursorPart, cursorPart).map((pair) => Buffer.from(JSON.stringify(pair)).toString('base64url')),
  fc
    .tuple(
      fc.constantFrom('1', '0', '99999-12-31', '2024-02-30T00:00:00Z', 'Tuesday', '-1', '2024-01-01T00:00:00Z'),
      fc.constantFrom(
        '------------------------------------',
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
        'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
        '0-0',
      ),
    )
    .map((pair) => Buffer.from(JSON.stringify(pair)).toString('base64url')),
);
