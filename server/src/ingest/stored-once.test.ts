import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { simpleParser } from 'mailparser';
import { startServer, type TestServer } from '../../test/harness.js';
import { htmlToText } from '../../../shared/html-text.js';

let server: TestServer;
const KEY = 'stored-once-key';
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

// Bodies whose parts are 7bit (stored once, read back from the raw message by offsets)
// and bodies that are quoted-printable (stored as before), with every kind of line break.
const BODIES: [string, string][] = [
  ['plain text with LF', 'Hello,\nplain text.\n\nBye\n'],
  ['plain text with CRLF', 'line one\r\nline two\r\n'],
  ['plain text without a line break', 'one line'],
  ['plain text with CR and mixed breaks', 'old\rmac\nunix\r\nwindows\n\r'],
  ['plain text ending in CR', 'trailing\r'],
  ['unicode text', 'Grüße 😀\nnaïve'],
  ['a line over 998 characters', `${'x'.repeat(1200)}\nshort`],
  ['HTML with LF', '<html><body><h1>Hi &amp; welcome</h1>\n<p>See <a href="https://acme.test/a?b=1&amp;c=2">this</a></p>\n</body></html>'],
  ['HTML with CRLF', '<p>one</p>\r\n<p>two</p>\r\n'],
  ['HTML with unicode', '<p>Köln 😀</p>\n<p>日本語</p>'],
  ['HTML on one line', '<p>short</p>'],
  ['HTML with CR', '<p>a</p>\r<p>b</p>'],
];

describe('text and HTML stored once, inside the raw message', () => {
  it.each(BODIES)('reads back %s exactly (API record, sandbox view, parsed raw)', async (_name, body) => {
    for (const attachments of [undefined, [{ filename: 'a.png', content: PNG, contentType: 'image/png', contentId: 'logo' }, { filename: 'r.txt', content: Buffer.from('report').toString('base64'), contentType: 'text/plain' }]]) {
      const sent = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'a@example.com', subject: 's', body, attachments } });
      expect(sent.status).toBe(200);
      const id = sent.body.data[0].email_id;
      const isHtml = body.includes('<p>') || body.includes('<html>');
      const text = isHtml ? htmlToText(body) : body;
      const email = (await server.api(`/v1/emails/${id}`, { key: KEY })).body.data;
      expect(email.metadata.text).toBe(text);
      expect(email.metadata.html).toBe(isHtml ? body : '');
      const view = (await server.api(`/sandbox/emails/${id}`)).body.data;
      expect([view.metadata.text, view.metadata.html]).toEqual([email.metadata.text, email.metadata.html]);
      const raw = Buffer.from(await (await fetch(`${server.url}/sandbox/emails/${id}/raw`)).arrayBuffer());
      const parsed = await simpleParser(raw);
      expect(parsed.attachments).toHaveLength(attachments ? 2 : 0);
      expect(parsed.html || '').toBe(isHtml ? body.replace(/\r\n|\r/g, '\n') : '');
    }
  });

  it('keeps a 7bit part only in the raw message, a generated one nowhere, and a quoted-printable one in its column', async () => {
    const send = async (body: string) => (await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'a@example.com', subject: 's', body } })).body.data[0].email_id as string;
    const ascii = await send('<p>ascii</p>\n<p>only</p>');
    const unicode = await send('<p>Grüße</p>');
    const textOnly = await send('just text\nin two lines');
    const asciiText = await send('<p title="Grüße">hello</p>');
    await server.sendbox.services.ingest.flush();
    const db = new Database(server.dbPath, { readonly: true });
    try {
      const row = (id: string) => db.prepare('SELECT b.text, b.html, b.spans, length(b.raw) AS stored, e.size FROM email_bodies b JOIN emails e ON e.id = b.email_id WHERE b.email_id = ?')
        .get(server.sendbox.services.ids.decode(id)) as { text: string; html: string; spans: string | null; stored: number; size: number };
      expect(row(ascii)).toMatchObject({ text: '', html: '' });
      // The generated text part is not stored at all: the message is its size less those bytes.
      const spans = JSON.parse(row(ascii).spans!);
      expect(Object.keys(spans)).toEqual(['text', 'html']);
      expect(spans.text.generated).toBe(1);
      expect(row(ascii).stored).toBe(row(ascii).size - (spans.text.end - spans.text.start));
      expect(row(unicode)).toMatchObject({ text: 'Grüße', html: '<p>Grüße</p>', spans: null });
      // Its HTML is not 7bit, but the text made from it is: left out, and made from the column.
      expect(row(asciiText)).toMatchObject({ text: '', html: '<p title="Grüße">hello</p>' });
      expect(JSON.parse(row(asciiText).spans!)).toEqual({ text: expect.objectContaining({ generated: 1 }) });
      const email = (await server.api(`/v1/emails/${asciiText}`, { key: KEY })).body.data;
      expect([email.metadata.text, email.metadata.html]).toEqual(['hello', '<p title="Grüße">hello</p>']);
      // A text body is the part itself, read back by offsets; nothing is generated.
      const plain = row(textOnly);
      expect(plain.stored).toBe(plain.size);
      expect(JSON.parse(plain.spans!).text.generated).toBeUndefined();
    } finally {
      db.close();
    }
  });
});
