import fc from 'fast-check';

/**
 * Building blocks for hostile input: nasty strings, wrong types, deep nesting,
 * prototype-pollution keys, numbers JSON cannot round-trip. Bodies are serialized by
 * `toJsonText`, so a value can also carry raw JSON text (`1e400`, 5 000 nested arrays).
 */

/** Raw JSON text spliced into a body as is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify that splices RawJson values in verbatim. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value && typeof value === 'object') {
    // Own keys only, `__proto__` included: the point is to send it.
    const entries = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined);
    return `{${entries.map((k) => `${JSON.stringify(k)}:${toJsonText((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** An object literal whose keys may include `__proto__` as an own property. */
export function objectOf(entries: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

export const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__'];

const SPECIAL_STRINGS = [
  '', ' ', '\t', '\r\n', 'a\r\nBcc: victim@example.com', '\u0000', 'null\u0000byte', '\u202eevil\u202c', '\ufeff', '\ud800', '\udfff',
  '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "'; DROP TABLE emails; --", '%', '_', '\\', '"', "'", '*', '**', '?',
  'NEAR(a b)', 'a OR b', '"unterminated', 'NaN', 'Infinity', '-0', '1e400', '0x10', '__proto__', 'constructor', 'prototype',
  '../../etc/passwd', '%00', '%2e%2e%2f', '😀', '👩‍👩‍👧‍👦', 'Ω≈ç√∫', 'مرحبا', '日本語', 'ẞ', 'İ', '\u0130', 'Ⅻ', '１２３', '٣',
  'a@b', 'a@b.c', 'x@y.invalid', 'bounce+bounced@x.test', 'user@[127.0.0.1]', '"quoted"@x.com', 'a..b@x.com', '@x.com', 'x@', 'x@-a.com',
  '2026-01-31', '2026-02-30', '2026-13-01', '9999-12-31T23:59:59Z', '0000-01-01', '2026-01-31T25:00:00Z', '1970-01-01T00:00:00+14:00',
  'true', 'false', 'yes', '1', '0', '-1', '00001', '1.5', '1e3', ' 1', '1 ', '+1', '9'.repeat(30),
];

/** Strings that break parsers, escapes, filters and displays. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 257, max: 70_000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('é', '😀', '\u0000', 'a\r\n'), fc.integer({ min: 100, max: 20_000 })).map(([s, n]) => s.repeat(n)) },
);

/** Rarely, a string of a megabyte or two: the edges of body and field limits. */
export const hugeString: fc.Arbitrary<string> = fc.constantFrom(256 * 1024, 1024 * 1024, 3 * 1024 * 1024).map((n) => 'h'.repeat(n));

const deepArray = fc.integer({ min: 20, max: 6000 }).map((d) => new RawJson('['.repeat(d) + ']'.repeat(d)));
const deepObject = fc.integer({ min: 20, max: 3000 }).map((d) => new RawJson('{"a":'.repeat(d) + '1' + '}'.repeat(d)));
const rawNumbers = fc.constantFrom('1e400', '-1e400', '1e-400', '12345678901234567890123', '-0', '0.1e1', '1E2').map((t) => new RawJson(t));

/** Any JSON value of the wrong kind for most fields. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1.5, Number.MAX_SAFE_INTEGER, 1e308),
  rawNumbers,
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);

/** Objects built to pollute prototypes if anything merges them carelessly. */
export const pollutionObject: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(fc.constantFrom(...POLLUTION_KEYS), fc.constantFrom('polluted', 'isAdmin', 'status', 'toString'))
  .map(([key, prop]) => objectOf([[key, objectOf([[prop, true], ['prototype', objectOf([[prop, true]])]])]]));

/** Anything at all, weighted toward the hostile. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 3, arbitrary: wrongType },
  { weight: 1, arbitrary: deepArray },
  { weight: 1, arbitrary: deepObject },
  { weight: 1, arbitrary: pollutionObject },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** A few extra keys, polluting or merely unknown. */
export const extraKeys: fc.Arbitrary<[string, unknown][]> = fc.array(
  fc.tuple(fc.oneof(fc.constantFrom(...POLLUTION_KEYS), fc.string({ maxLength: 12 })), nastyValue),
  { maxLength: 3 },
);

// Addresses the contract accepts: dot-atom local parts (with UTF-8), dotted domains.
const localChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split(''), 'é', 'ü');
const localAtom = fc.string({ unit: localChar, minLength: 1, maxLength: 10 });
const label = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split('')), minLength: 1, maxLength: 12 });
const tld = fc.constantFrom('com', 'test', 'example', 'org', 'invalid', 'dev');
export const validDomain: fc.Arbitrary<string> = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld).map(([labels, t]) => [...labels, t].join('.'));
const tag = fc.constantFrom('', '+bounced', '+delivered', '+deferred', '+failed', '+complaint', '+x.y', '-z', '.dot', "!#$%&'*/=?^_`{|}~");

export const validAddress: fc.Arbitrary<string> = fc
  .tuple(localAtom, tag, validDomain)
  .map(([local, t, domain]) => `${local}${t}@${domain}`);

const displayName = fc.oneof(
  fc.constantFrom('Alice', 'Bob Smith', 'Zoë Ünïcödé', '山田太郎', '😀 Emoji', 'O\'Brien', 'a,b'),
  fc.string({ unit: fc.constantFrom(...'abcXYZ -_.()&é'.split('')), minLength: 1, maxLength: 30 }),
);
export const quotedName = fc.constantFrom('"Doe, J" ', '"a <b> c" ', '"back\\\\slash" ');

/** `addr`, `Name <addr>` or `"Quoted, Name" <addr>`. */
export const validDisplayAddress: fc.Arbitrary<string> = fc.oneof(
  validAddress,
  fc.tuple(displayName, validAddress).map(([n, a]) => `${n.trim() || 'N'} <${a}>`),
  fc.tuple(quotedName, validAddress).map(([n, a]) => `${n}<${a}>`),
);

/** Strings that are not addresses in any form. */
export const invalidAddress: fc.Arbitrary<string> = fc.constantFrom(
  '', ' ', 'plain', 'a@b', '@x.com', 'x@', 'a..b@x.com', '.a@x.com', 'a.@x.com', 'x@-a.com', 'x@a-.com', 'x@a..com', 'a b@x.com',
  'Name <>', 'Name <not-an-address>', '<a@b.com', 'a@b.com>', 'a@b.com\r\nBcc: v@x.com', 'Ev"il <a@b.com>', 'x'.repeat(65) + '@x.com',
  `a@${'l'.repeat(64)}.com`, `a@${'b.'.repeat(130)}com`, 'a@b.com, c@d.com', 'a@[127.0.0.1]', '"quoted"@x.com', 'a@b.c\u0000m',
);

/** Printable text without CR/LF (subjects, names, header values). */
export const lineText = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength: Math.min(maxLength, 80) }).map((s) => s.replace(/[\r\n]/g, ' ')),
    fc.string({ unit: 'grapheme', maxLength: Math.min(maxLength, 60) }).map((s) => s.replace(/[\r\n\u2028\u2029\u0085]/g, ' ')),
    fc.constantFrom('', 'Reset your password', 'Your code is 123456', '<b>bold</b> & "quotes"', '=?utf-8?B?Zm9v?=', 'x'.repeat(Math.min(maxLength, 998))),
  ).map((s) => [...s].slice(0, maxLength).join('').slice(0, maxLength)).filter((s) => s.length <= maxLength && !/[\r\n]/.test(s));

/** Standard base64 of some bytes, sometimes wrapped at 76 columns. */
export const base64Content: fc.Arbitrary<string> = fc
  .tuple(fc.uint8Array({ maxLength: 2048 }), fc.boolean(), fc.boolean())
  .map(([bytes, wrap, unpad]) => {
    let s = Buffer.from(bytes).toString('base64');
    if (unpad) s = s.replace(/=+$/, '');
    return wrap ? s.replace(/(.{76})/g, '$1\r\n') : s;
  });
