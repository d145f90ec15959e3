import { describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import fc from 'fast-check';
import { composeMime, scanBody, type ComposeInput } from './compose.js';
import { TEXT_GENERATOR, TEXT_GENERATORS } from '../../../shared/html-text.js';
import { withGeneratedText } from '../storage/body-spans.js';

// What textPart decided with regular expressions before the one-pass scan.
function reference(content: string) {
  const normalized = content.replace(/\r?\n|\r/g, '\r\n');
  return {
    crlf: normalized === content,
    lf: !content.includes('\r'),
    ascii: /^[\x00-\x7F]*$/.test(content),
    longLine: normalized.split('\r\n').some((line) => line.length > 998),
    breaks: content.includes('\r') ? -1 : content.split('\n').length - 1,
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

describe('a generated text part, left out of the stored message', () => {
  const address = { name: '', address: 'a@example.com' };
  const compose = (html: string, attachments: ComposeInput['attachments'], textGenerator?: number) => composeMime({
    messageId: 'm@x', date: 0, from: address, to: [address], cc: [], replyTo: address, subject: 's',
    text: TEXT_GENERATORS[TEXT_GENERATOR](html), html, textGenerator, headers: {}, attachments,
  });
  // Boundaries are random: the same message composed twice differs only there.
  const sameBoundaries = (raw: Buffer) => raw.toString('latin1').replace(/_sendbox_[0-9a-f]{24}/g, '_sendbox_B');
  const ATTACHMENTS: ComposeInput['attachments'][] = [
    [],
    [{ filename: 'logo.png', base64: Buffer.alloc(300, 3).toString('base64'), contentType: 'image/png', contentId: 'logo' }],
    [{ filename: 'a.bin', base64: Buffer.alloc(5000, 1).toString('base64'), contentType: 'application/octet-stream' },
      { filename: 'logo.png', base64: Buffer.alloc(70, 2).toString('base64'), contentType: 'image/png', contentId: 'logo' }],
  ];

  it('is measured but not stored, and storage puts back exactly the message composed whole', () => {
    const piece = fc.oneof(
      fc.constantFrom('<p>', '</p>', '<br>', '<li>', '<a href="https://acme.test/x?a=1&amp;b=2">', '</a>', '<td>', '&nbsp;', '&#13;', '&#10;', '&amp;', '\n', '\r\n', '\r', ' ', '<img src="cid:logo">'),
      fc.string({ maxLength: 30 }),
      fc.integer({ min: 990, max: 1005 }).map((n) => 'y'.repeat(n)),
      fc.constantFrom('é', '😀', '\u00a0'),
    );
    let omitted = 0;
    fc.assert(fc.property(fc.array(piece, { minLength: 1, maxLength: 30 }).map((parts) => `<p>${parts.join('')}</p>`), fc.constantFrom(...ATTACHMENTS), (html, attachments) => {
      const whole = compose(html, attachments);
      const stored = compose(html, attachments, TEXT_GENERATOR);
      expect(stored.size).toBe(whole.raw.length);
      const text = stored.spans.text;
      if (text?.generated === undefined) {
        // Not 7bit (or with CRs of its own): stored as before.
        expect(stored.raw.length).toBe(stored.size);
        expect(sameBoundaries(stored.raw)).toBe(sameBoundaries(whole.raw));
        return;
      }
      omitted++;
      expect(stored.raw.length).toBe(stored.size - (text.end - text.start));
      const read = withGeneratedText(stored.raw, text, stored.spans.html, html);
      expect(sameBoundaries(read.raw)).toBe(sameBoundaries(whole.raw));
      expect(read.text).toBe(TEXT_GENERATORS[TEXT_GENERATOR](html));
      expect(read.html).toBe(html);
    }), { numRuns: 1500 });
    // About a fifth of these bodies give 7bit text: the property saw plenty of left-out parts.
    expect(omitted).toBeGreaterThan(100);
  });

  it('parses back as the same email with mailparser', async () => {
    const html = '<h1>Receipt</h1>\n<p>Paid <b>42.00</b> &amp; thanks.</p><p><a href="https://acme.test/r/1">View</a></p>';
    const stored = compose(html, ATTACHMENTS[2], TEXT_GENERATOR);
    expect(stored.spans.text?.generated).toBe(TEXT_GENERATOR);
    const parsed = await simpleParser(withGeneratedText(stored.raw, stored.spans.text!, stored.spans.html, '').raw);
    expect(parsed.text).toBe('Receipt\n\nPaid 42.00 & thanks.\n\nView [https://acme.test/r/1]');
    expect(parsed.attachments.map((a) => a.filename).sort()).toEqual(['a.bin', 'logo.png']);
  });

  it('refuses to read a part whose regenerated bytes would not fill its place', () => {
    const stored = compose('<p>one</p><p>two</p>', []);
    const composed = compose('<p>one</p><p>two</p>', [], TEXT_GENERATOR);
    expect(stored.raw.length).toBeGreaterThan(composed.raw.length);
    expect(() => withGeneratedText(composed.raw, { ...composed.spans.text!, end: composed.spans.text!.end + 1 }, composed.spans.html, '')).toThrow(/regenerated text part/);
    expect(() => withGeneratedText(composed.raw, { ...composed.spans.text!, generated: 99 }, composed.spans.html, '')).toThrow(/text generator 99/);
  });
});
