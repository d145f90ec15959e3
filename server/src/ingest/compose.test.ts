import { describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import fc from 'fast-check';
import { composeMime, scanBody } from './compose.js';

// What textPart decided with regular expressions before the one-pass scan.
function reference(content: string) {
  const normalized = content.replace(/\r?\n|\r/g, '\r\n');
  return {
    crlf: normalized === content,
    lf: !content.includes('\r'),
    ascii: /^[\x00-\x7F]*$/.test(content),
    longLine: normalized.split('\r\n').some((line) => line.length > 998),
  };
}

describe('scanBody', () => {
  it('agrees with the regular-expression checks on any mix of line breaks, lengths and characters', () => {
    const piece = fc.oneof(
      fc.constantFrom('\r\n', '\n', '\r', '\r\r\n', '\n\r'),
      fc.string({ maxLength: 40 }),
      fc.integer({ min: 990, max: 1005 }).map((n) => 'x'.repeat(n)),
      fc.constantFrom('é', '😀', '\u007f', '\u0080'),
    );
    fc.assert(fc.property(fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')), (content) => {
      expect(scanBody(content)).toEqual(reference(content));
    }), { numRuns: 2000 });
  });

  it('measures a line of exactly 998 characters as fine and 999 as long, with every kind of break', () => {
    for (const eol of ['\r\n', '\n', '\r']) {
      expect(scanBody(`a${eol}${'x'.repeat(998)}${eol}b`).longLine).toBe(false);
      expect(scanBody(`a${eol}${'x'.repeat(999)}${eol}b`).longLine).toBe(true);
      expect(scanBody(`a${eol}${'x'.repeat(999)}`).longLine).toBe(true);
    }
  });
});

describe('composeMime attachments', () => {
  it('wraps base64 at 76 characters, padded, whatever its length', () => {
    const address = { name: '', address: 'a@example.com' };
    for (const bytes of [0, 1, 2, 56, 57, 58, 113, 114, 115, 1000, 4096]) {
      const base64 = Buffer.alloc(bytes, 7).toString('base64');
      for (const given of [base64, base64.replace(/=+$/, '')]) {
        const { raw } = composeMime({ messageId: 'm@x', date: 0, from: address, to: [address], cc: [], replyTo: address, subject: 's', text: 't', html: null, headers: {}, attachments: [{ filename: 'f.bin', base64: given, contentType: 'application/octet-stream' }] });
        const wrapped = (base64.match(/.{1,76}/g) ?? []).join('\r\n');
        expect(raw.toString('latin1')).toContain(`Content-Disposition: attachment; filename=f.bin\r\n\r\n${wrapped}\r\n--`);
      }
    }
  });

  it('writes every part at its place when several attachments follow the text and HTML parts', async () => {
    const address = { name: '', address: 'a@example.com' };
    const files = [Buffer.alloc(100_003, 1).map((_, i) => i % 251), Buffer.from('second file'), Buffer.alloc(57, 9)];
    const { raw, spans } = composeMime({
      messageId: 'm@x', date: 0, from: address, to: [address], cc: [], replyTo: address, subject: 's', text: 'plain\nbody', html: '<p>html <img src="cid:logo"></p>', headers: {},
      attachments: [
        { filename: 'a.bin', base64: files[0].toString('base64'), contentType: 'application/octet-stream' },
        { filename: 'logo.png', base64: files[2].toString('base64'), contentType: 'image/png', contentId: 'logo' },
        { filename: 'b.txt', base64: files[1].toString('base64').replace(/=+$/, ''), contentType: 'text/plain' },
      ],
    });
    const parsed = await simpleParser(raw);
    expect(parsed.text).toBe('plain\nbody');
    // mailparser inlines the related image: its bytes came back whole too.
    expect(parsed.html).toContain(`<p>html <img src="data:image/png;base64,${files[2].toString('base64')}"></p>`);
    const byName = { 'a.bin': files[0], 'b.txt': files[1], 'logo.png': files[2] } as Record<string, Buffer>;
    expect(parsed.attachments.map((a) => a.filename).sort()).toEqual(['a.bin', 'b.txt', 'logo.png']);
    for (const a of parsed.attachments) expect(a.content.equals(byName[a.filename!]), a.filename).toBe(true);
    expect(raw.toString('latin1', spans.html!.start, spans.html!.end)).toBe('<p>html <img src="cid:logo"></p>');
    expect(raw.toString('latin1', spans.text!.start, spans.text!.end)).toBe('plain\r\nbody');
  });
});
