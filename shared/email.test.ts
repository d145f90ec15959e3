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

  it('measures the decoded size without decoding', () => {
    for (const bytes of [0, 1, 2, 3, 4, 5, 1000, 1001, 1002]) {
      const encoded = Buffer.alloc(bytes, 7).toString('base64');
      expect(base64DecodedLength(normalizeBase64(encoded)!)).toBe(bytes);
      expect(base64DecodedLength(normalizeBase64(encoded.replace(/=+$/, ''))!)).toBe(bytes);
    }
  });
});
