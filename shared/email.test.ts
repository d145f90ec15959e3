import { describe, expect, it } from 'vitest';
import { base64DecodedLength, normalizeBase64 } from './email.js';

describe('normalizeBase64', () => {
  it.each([
    ['aGVsbG8=', 'aGVsbG8='],
    ['aGVsbG8', 'aGVsbG8'],
    ['aGVs\r\nbG8=', 'aGVsbG8='],
    ['aGVs\nbG8=\n', 'aGVsbG8='],
    ['', ''],
    ['+/+/', '+/+/'],
    // Non-zero trailing bits: not what an encoder writes, still base64 (the native check declines, the loop accepts).
    ['QR==', 'QR=='],
    ['QUJ=', 'QUJ='],
  ])('accepts %j', (input, expected) => {
    expect(normalizeBase64(input)).toBe(expected);
  });

  it.each(['not base64!', 'aGVsbG8===', 'a', 'aGVsb', 'aGVsbG8=x', 'aG=sbG8=', 'aGVs\rbG8=', 'aGVsbG8-', 'aGVsbG8_', 'aGVs-G8_', 'aGVs bG8=', 'aGVs\tbG8=', 'ÄGVsbG8=', 'aGVsbG=', 'aGVsbG8'.slice(0, 5) + '=='])('refuses %j', (input) => {
    expect(normalizeBase64(input)).toBeNull();
  });

  it('gives the verdict of a plain alphabet check on every input (the server decides with Node\'s decoder)', () => {
    const alphabet = /^[A-Za-z0-9+/]*$/;
    const reference = (content: string): string | null => {
      const compact = content.replace(/\r?\n/g, '');
      const data = compact.replace(/=+$/, '');
      if (compact.length - data.length > 2 || !alphabet.test(data) || data.length % 4 === 1) return null;
      if (data.length !== compact.length && compact.length % 4 !== 0) return null;
      return compact;
    };
    // Every ASCII character, a few beyond it, and base64's own letters many times over.
    const pool = [...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)), 'Ä', 'ÿ', '€', '\u{1F600}', ...'AQgw+/=Zz9\r\n'.repeat(12)];
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let accepted = 0;
    for (let i = 0; i < 50_000; i++) {
      const length = Math.floor(random() * 14);
      let input = '';
      for (let j = 0; j < length; j++) input += pool[Math.floor(random() * pool.length)];
      // Mostly valid base64 with one change, so both verdicts are exercised.
      if (i % 2 === 0) {
        const valid = Buffer.from(input).toString('base64');
        const at = Math.floor(random() * (valid.length + 1));
        input = i % 4 === 0 ? valid : valid.slice(0, at) + pool[Math.floor(random() * pool.length)] + valid.slice(at + 1);
      }
      const expected = reference(input);
      if (expected !== null) accepted++;
      expect(normalizeBase64(input), JSON.stringify(input)).toBe(expected);
    }
    expect(accepted).toBeGreaterThan(10_000);
  });

  it('decides megabyte attachments the same way, whichever 64 K-character slice a bad character falls in', () => {
    const valid = Buffer.from(Array.from({ length: 1_000_001 }, (_, i) => (i * 7919) % 256)).toString('base64');
    expect(normalizeBase64(valid)).toBe(valid);
    expect(normalizeBase64(valid.replace(/=+$/, ''))).toBe(valid.replace(/=+$/, ''));
    for (const at of [0, 65_535, 65_536, 65_537, 131_072, valid.length - 5]) {
      for (const bad of ['!', '-', '_', ' ', '=', 'Ä']) {
        expect(normalizeBase64(valid.slice(0, at) + bad + valid.slice(at + 1)), `${JSON.stringify(bad)} at ${at}`).toBeNull();
      }
    }
  });

  it('measures the decoded size without decoding', () => {
    for (const bytes of [0, 1, 2, 3, 4, 5, 1000, 1001, 1002]) {
      const encoded = Buffer.alloc(bytes, 7).toString('base64');
      expect(base64DecodedLength(normalizeBase64(encoded)!)).toBe(bytes);
      expect(base64DecodedLength(normalizeBase64(encoded.replace(/=+$/, ''))!)).toBe(bytes);
    }
  });
});
