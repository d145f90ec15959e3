import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normalizeBase64 } from '../../../shared/email.js';
import { isStrictBase64Bytes, liftBase64Contents, liftedAsAttachments } from './lifted-base64.js';

/** The parsed body with every placeholder replaced by its bytes as a string: what the send sees. */
function restored(text: string, contents: Map<string, Buffer>): unknown {
  return JSON.parse(text, (_key, value) => (typeof value === 'string' && contents.has(value) ? contents.get(value)!.toString('latin1') : value));
}

describe('isStrictBase64Bytes', () => {
  it('accepts exactly what normalizeBase64 accepts unchanged, for any bytes', () => {
    const piece = fc.oneof(
      fc.base64String({ maxLength: 40 }),
      fc.constantFrom('=', '==', '===', '-', '_', ' ', '\n', '\r\n', '\t', 'é', '\u00ff', '"', '\\', '.', '\u0000'),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(fc.property(fc.array(piece, { maxLength: 10 }).map((parts) => parts.join('')), (text) => {
      const bytes = Buffer.from(text, 'latin1');
      // Only single-byte characters: what a request's bytes are, read as latin1.
      fc.pre(bytes.toString('latin1') === text);
      expect(isStrictBase64Bytes(bytes)).toBe(normalizeBase64(text) === text);
    }), { numRuns: 20000 });
  });

  it('decides across 64 K-character slices, a bad character in any of them', () => {
    const good = Buffer.alloc(300_000, 7).toString('base64');
    expect(isStrictBase64Bytes(Buffer.from(good))).toBe(true);
    for (const at of [0, 65535, 65536, 131072, good.length - 5]) {
      for (const bad of ['-', '_', '*', ' ', '\n']) {
        const bytes = Buffer.from(good);
        bytes[at] = bad.charCodeAt(0);
        expect(isStrictBase64Bytes(bytes), `${JSON.stringify(bad)} at ${at}`).toBe(false);
      }
    }
  });
});

describe('liftBase64Contents', () => {
  const big = (n: number) => randomBytes(n).toString('base64');

  it('lifts long attachment contents and gives back the same document', () => {
    const doc = { to: 'a@example.com', subject: 's', body: '<p>"content": "x"</p>', attachments: [{ filename: 'a', content: big(40_000), contentType: 'a/b' }, { filename: 'b', contentType: 'a/b', content: big(50_000) }] };
    const text = JSON.stringify(doc);
    const lifted = liftBase64Contents(Buffer.from(text))!;
    expect(lifted.contents.size).toBe(2);
    expect(lifted.text.length).toBeLessThan(1000);
    const value = JSON.parse(lifted.text);
    expect(liftedAsAttachments(value, lifted)).toBe(true);
    expect(restored(lifted.text, lifted.contents)).toEqual(doc);
  });

  it('leaves short, escaped, non-strict and whitespace-broken values to the ordinary parse', () => {
    expect(big(40_000)).toContain('/');
    for (const content of [big(100), big(40_000).replaceAll('/', '\\/'), big(40_000).replace('A', '-'), `${big(20_000)}\n${big(20_000)}`, `${big(40_000)}===`]) {
      const text = `{"attachments":[{"content":"${content.replaceAll('\n', '\\n')}"}]}`;
      expect(liftBase64Contents(Buffer.from(text)), content.slice(0, 20)).toBeNull();
    }
  });

  it('says so when a lifted value was not an attachment, so the body is parsed whole', () => {
    const header = JSON.stringify({ to: 'a@example.com', subject: 's', body: 'b', headers: { content: big(40_000) } });
    const lifted = liftBase64Contents(Buffer.from(header))!;
    expect(lifted.contents.size).toBe(1);
    expect(liftedAsAttachments(JSON.parse(lifted.text), lifted)).toBe(false);
    // A duplicate key: JSON keeps the last value, the first placeholder is not found.
    const twice = `{"attachments":[{"content":"${big(40_000)}","content":"${big(30_000)}"}]}`;
    const both = liftBase64Contents(Buffer.from(twice))!;
    expect(both.contents.size).toBe(2);
    expect(liftedAsAttachments(JSON.parse(both.text), both)).toBe(false);
  });

  it('never changes what a document means: lifted and restored, or left alone', () => {
    // Small values and a small threshold, so that lifting happens in most documents.
    const b64 = fc.base64String({ minLength: 8, maxLength: 40 });
    const str = fc.oneof(b64, fc.string({ maxLength: 12 }), fc.constantFrom('"content": "QUJD"', '\\"content\\":"QUJDRA=="', 'content'));
    const attachment = fc.record({ filename: str, content: fc.oneof(b64, str), contentType: str }, { requiredKeys: ['content'] });
    const doc = fc.record({ subject: str, body: str, headers: fc.dictionary(fc.constantFrom('content', 'x-a', 'Content'), str), attachments: fc.array(attachment, { maxLength: 3 }) });
    let lifts = 0;
    fc.assert(fc.property(doc, fc.constantFrom(0, 2), (value, indent) => {
      const text = JSON.stringify(value, null, indent);
      const lifted = liftBase64Contents(Buffer.from(text), 8);
      if (!lifted) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(lifted.text);
      } catch {
        return; // The caller parses the original instead.
      }
      if (!liftedAsAttachments(parsed, lifted)) return;
      lifts++;
      expect(restored(lifted.text, lifted.contents)).toEqual(value);
    }), { numRuns: 3000 });
    expect(lifts).toBeGreaterThan(300);
  });
});
