import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { startServer, eventually, type TestServer } from '../../../test/harness.js';

let server: TestServer;
const KEY = 'send-test-key-0001';
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const send = (json: unknown, key = KEY) => server.api('/v1/send', { method: 'POST', key, json });
const getEmail = async (id: string, key = KEY) => (await server.api(`/v1/emails/${id}`, { key })).body.data;
const delivered = (id: string, key = KEY) => eventually(async () => {
  const email = await getEmail(id, key);
  return email.status === 'delivered' ? email : undefined;
}, 5000, `email ${id} delivered`);

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('POST /v1/send: success', () => {
  it('accepts a minimal send and answers the SMTP-style acknowledgement', async () => {
    const res = await send({ to: 'a@example.com', subject: 'Hi', body: 'Hello' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'success', 'timestamp']);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toHaveLength(1);
    const { email_id, message } = res.body.data[0];
    expect(email_id).toMatch(/^[0-9a-f]{16}$/);
    expect(message).toBe(`250 2.0.0 Ok: queued as ${email_id}`);
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
  });

  it('stores a text email with every field of the reference record', async () => {
    const res = await send({ to: 'Bob <bob@example.com>', subject: 'Your receipt', body: 'Thanks for your order.\nTotal: 10 EUR' });
    const email = await delivered(res.body.data[0].email_id);
    expect(Object.keys(email).sort()).toEqual(['api_key_id', 'attachments', 'click_count', 'created_at', 'credits_used', 'delivered_at', 'from_address', 'id', 'inline', 'logs', 'message_id', 'metadata', 'opened_at', 'size', 'snippet', 'status', 'subject', 'team_id', 'to_addresses'].sort());
    expect(email).toMatchObject({
      id: res.body.data[0].email_id,
      message_id: `${res.body.data[0].email_id}@sendbox.local`,
      from_address: 'sandbox@sendbox.local',
      to_addresses: ['bob@example.com'],
      subject: 'Your receipt',
      inline: 0,
      attachments: 0,
      api_key_id: expect.any(Number),
      snippet: 'Thanks for your order. Total: 10 EUR',
      team_id: expect.stringMatching(/^team_[0-9a-f]{12}$/),
      opened_at: null,
      click_count: 0,
      status: 'delivered',
      credits_used: 1,
      metadata: { from: 'sandbox@sendbox.local', to: ['Bob <bob@example.com>'], cc: null, bcc: null, reply_to: 'sandbox@sendbox.local', text: 'Thanks for your order.\nTotal: 10 EUR', html: '' },
    });
    expect(email.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(typeof email.delivered_at).toBe('string');
    expect(email.size).toBeGreaterThan(100);
    expect(email.logs.map((l: { status: string }) => l.status)).toEqual(['processing', 'queued', 'delivered']);
  });

  it('makes an HTML body the HTML part with a generated text part, and keeps cc, bcc, username, reply_to and headers', async () => {
    const res = await send({
      from: 'no-reply@acme.test',
      username: 'Acme Support',
      to: ['ann@example.com', 'Ben <ben@example.com>'],
      cc: 'carl@example.com',
      bcc: ['dora@example.com'],
      reply_to: 'help@acme.test',
      subject: 'Reset your password',
      body: '<h1>Hello</h1><p>Click <a href="https://acme.test/reset?t=abc">here</a> to reset.</p>',
      headers: { 'X-Campaign': 'reset', 'List-Unsubscribe': '<mailto:u@acme.test>' },
    });
    expect(res.status).toBe(200);
    const email = await delivered(res.body.data[0].email_id);
    expect(email.from_address).toBe('no-reply@acme.test');
    expect(email.to_addresses).toEqual(['ann@example.com', 'ben@example.com']);
    expect(email.credits_used).toBe(4);
    expect(email.metadata).toMatchObject({
      from: 'Acme Support <no-reply@acme.test>',
      to: ['ann@example.com', 'Ben <ben@example.com>'],
      cc: ['carl@example.com'],
      bcc: ['dora@example.com'],
      reply_to: 'help@acme.test',
      html: '<h1>Hello</h1><p>Click <a href="https://acme.test/reset?t=abc">here</a> to reset.</p>',
    });
    expect(email.metadata.text).toContain('Click here [https://acme.test/reset?t=abc] to reset.');
    // One log entry per recipient and stage, typed by how it was addressed.
    const types = Object.fromEntries(email.logs.filter((l: { status: string }) => l.status === 'delivered').map((l: { recipient: string; recipient_type: string }) => [l.recipient, l.recipient_type]));
    expect(types).toEqual({ 'ann@example.com': 'to', 'ben@example.com': 'to', 'carl@example.com': 'cc', 'dora@example.com': 'bcc' });

    const raw = await server.sendbox.services.emails.body(server.sendbox.services.ids.decode(email.id)!)!.raw;
    expect(email.size).toBe(raw.length);
    const parsed = await simpleParser(raw);
    expect(parsed.from?.value[0]).toMatchObject({ name: 'Acme Support', address: 'no-reply@acme.test' });
    expect(parsed.headers.get('bcc')).toBeUndefined();
    expect(parsed.headers.get('x-campaign')).toBe('reset');
    expect(parsed.messageId).toBe(`<${email.message_id}>`);
    expect(parsed.html).toContain('<h1>Hello</h1>');
    expect(parsed.text).toContain('Click here');
  });

  it('counts attachments and inline images and composes them as real MIME', async () => {
    const res = await send({
      to: 'a@example.com',
      subject: 'Invoice 🧾 für Sie',
      body: '<p>Logo: <img src="cid:logo" alt="logo"></p>',
      attachments: [
        { filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4 fake').toString('base64'), contentType: 'application/pdf' },
        { filename: 'résumé.txt', content: Buffer.from('hello\n').toString('base64').replace(/=+$/, ''), contentType: 'text/plain' },
        { filename: 'logo.png', content: PNG, contentType: 'image/png', contentId: '<logo>' },
      ],
    });
    expect(res.status).toBe(200);
    const email = await delivered(res.body.data[0].email_id);
    expect(email.attachments).toBe(2);
    expect(email.inline).toBe(1);
    const raw = server.sendbox.services.emails.body(server.sendbox.services.ids.decode(email.id)!)!.raw;
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('Invoice 🧾 für Sie');
    const byName = Object.fromEntries(parsed.attachments.map((a) => [a.filename, a]));
    expect(byName['invoice.pdf'].content.toString()).toBe('%PDF-1.4 fake');
    expect(byName['résumé.txt'].content.toString()).toBe('hello\n');
    expect(byName['logo.png'].cid).toBe('logo');
    expect(byName['logo.png'].contentType).toBe('image/png');
  });

  it('charges one credit per distinct recipient, compared case-insensitively', async () => {
    const res = await send({ to: ['x@example.com', 'X@Example.com'], cc: 'x@EXAMPLE.com', subject: 's', body: 'b' });
    const email = await delivered(res.body.data[0].email_id);
    expect(email.credits_used).toBe(1);
  });

  it('accepts 50 recipients in all', async () => {
    const to = Array.from({ length: 30 }, (_, i) => `to${i}@example.com`);
    const cc = Array.from({ length: 20 }, (_, i) => `cc${i}@example.com`);
    const res = await send({ to, cc, subject: 'many', body: 'b' });
    expect(res.status).toBe(200);
    expect((await delivered(res.body.data[0].email_id)).credits_used).toBe(50);
  });
});

describe('POST /v1/send: errors', () => {
  const base = { to: 'a@example.com', subject: 's', body: 'b' };
  const expectError = (res: { status: number; body: any }, status: number, field?: string) => {
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ status, success: false, message: expect.any(String) });
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
    if (field) expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  };

  it.each([
    ['wrong type of to', { ...base, to: 5 }, 'to'],
    ['missing to', { subject: 's', body: 'b' }, 'to'],
    ['empty to array', { ...base, to: [] }, 'to'],
    ['attachments not an array', { ...base, attachments: 'x' }, 'attachments'],
    ['missing subject', { to: 'a@example.com', body: 'b' }, 'subject'],
    ['empty body', { ...base, body: '' }, 'body'],
    ['invalid address', { ...base, to: ['ok@example.com', 'not an address'] }, 'to.1'],
    ['invalid from', { ...base, from: 'nobody' }, 'from'],
    ['CRLF in subject', { ...base, subject: 'Hi\r\nBcc: victim@example.com' }, 'subject'],
    ['CR in username', { ...base, username: 'Evil\rBcc: x@y.com' }, 'username'],
    ['CRLF in a header value', { ...base, headers: { 'X-Test': 'a\r\nBcc: victim@example.com' } }, 'headers.X-Test'],
    ['a reserved header', { ...base, headers: { Subject: 'override' } }, 'headers.Subject'],
    ['a Content-* header', { ...base, headers: { 'Content-Type': 'text/html' } }, 'headers.Content-Type'],
    ['a header name with a colon', { ...base, headers: { 'X:Bad': 'v' } }, 'headers.X:Bad'],
    ['a header value that is not a string', { ...base, headers: { 'X-N': 5 } }, 'headers.X-N'],
    ['6 attachments', { ...base, attachments: Array.from({ length: 6 }, (_, i) => ({ filename: `f${i}.txt`, content: 'aGk=', contentType: 'text/plain' })) }, 'attachments'],
    ['invalid base64', { ...base, attachments: [{ filename: 'f.txt', content: 'not base64!', contentType: 'text/plain' }] }, 'attachments.0.content'],
    ['a bad contentType', { ...base, attachments: [{ filename: 'f.txt', content: 'aGk=', contentType: 'text' }] }, 'attachments.0.contentType'],
    ['an empty filename', { ...base, attachments: [{ filename: '', content: 'aGk=', contentType: 'text/plain' }] }, 'attachments.0.filename'],
    ['CRLF in a filename', { ...base, attachments: [{ filename: 'a\r\n.txt', content: 'aGk=', contentType: 'text/plain' }] }, 'attachments.0.filename'],
  ])('answers 422 for %s', async (_name, body, field) => {
    expectError(await send(body), 422, field);
  });

  it('answers 422 for 51 recipients', async () => {
    const to = Array.from({ length: 40 }, (_, i) => `t${i}@example.com`);
    const bcc = Array.from({ length: 11 }, (_, i) => `b${i}@example.com`);
    expectError(await send({ ...base, to, bcc }), 422, 'to');
  });

  it('answers 400 for malformed JSON and for a body that is not an object', async () => {
    const malformed = await server.api('/v1/send', { method: 'POST', key: KEY, headers: { 'Content-Type': 'application/json' }, body: '{"to": ' });
    expectError(malformed, 400);
    expectError(await send([base]), 400);
    expectError(await send('just a string'), 400);
    expectError(await send(null), 400);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await server.api('/v1/send', { method: 'POST', key: KEY, headers: { 'Content-Type': 'text/plain' }, body: 'hello' });
    expectError(res, 415);
  });

  it('answers 413 for a 6 MiB attachment, after the shape is valid', async () => {
    const content = Buffer.alloc(6 * 1024 * 1024, 1).toString('base64');
    expectError(await send({ ...base, attachments: [{ filename: 'big.bin', content, contentType: 'application/octet-stream' }] }), 413, 'attachments.0.content');
    // Shape still comes first: the same size with a bad type is a 422.
    expectError(await send({ ...base, attachments: [{ filename: 'big.bin', content, contentType: 'nope' }] }), 422);
  });

  it('answers 413 JSON for a 40 MiB body', async () => {
    const res = await server.api('/v1/send', { method: 'POST', key: KEY, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...base, body: 'x'.repeat(40 * 1024 * 1024) }) });
    expectError(res, 413);
  });

  it('answers 413 when the whole message would exceed 25 MiB', async () => {
    const content = Buffer.alloc(4.9 * 1024 * 1024, 2).toString('base64');
    const attachments = Array.from({ length: 5 }, (_, i) => ({ filename: `f${i}.bin`, content, contentType: 'application/octet-stream' }));
    expectError(await send({ ...base, body: 'x'.repeat(1024 * 1024), attachments }), 413);
  });

  it('answers 401 without a usable Authorization header, never a 500', async () => {
    for (const headers of [{}, { Authorization: '' }, { Authorization: 'Bearer' }, { Authorization: 'Basic abc' }, { Authorization: 'Bearer two words' }] as Record<string, string>[]) {
      const res = await server.api('/v1/send', { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(base) });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ status: 401, message: expect.any(String), success: false });
    }
  });

  it('answers 405 for a wrong method and 404 JSON for an unknown route', async () => {
    const wrong = await server.api('/v1/send', { method: 'GET', key: KEY });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    const unknown = await server.api('/v1/nope', { key: KEY });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: 404, message: expect.any(String) });
  });

  it('stores nothing for a refused send', async () => {
    const key = 'refused-sends-key';
    await send({ ...base, to: 'bad' }, key);
    await send({ ...base, subject: 'a\nb' }, key);
    const list = await server.api('/v1/emails', { key });
    expect(list.body.data.pagination.total_records).toBe(0);
  });
});

describe('concurrency', () => {
  it('stores 50 concurrent sends, all reach delivered, and the list total is exact', async () => {
    const key = 'concurrent-key-50';
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => send({ to: `c${i}@example.com`, subject: `concurrent ${i}`, body: 'x' }, key)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const ids = new Set(results.map((r) => r.body.data[0].email_id));
    expect(ids.size).toBe(50);
    await eventually(async () => {
      const list = await server.api('/v1/emails?status=delivered&limit=100', { key });
      return list.body.data.pagination.total_records === 50;
    }, 10_000, 'all 50 delivered');
    const list = await server.api('/v1/emails?limit=100', { key });
    expect(list.body.data.pagination.total_records).toBe(50);
    expect(new Set(list.body.data.data.map((e: { id: string }) => e.id))).toEqual(ids);
  });
});

describe('hostile bodies', () => {
  it('stores deeply nested HTML with a plain text part instead of failing', async () => {
    const res = await send({ to: 'a@example.com', subject: 'nested', body: '<a>'.repeat(20_000) + 'deep text' });
    expect(res.status).toBe(200);
    const email = await getEmail(res.body.data[0].email_id);
    expect(email.metadata.text).toContain('deep text');
  });
});

describe('--strict-sender', () => {
  it('refuses a from outside the team\'s verified domains with 403, and follows verification and deletion', async () => {
    const strict = await startServer(['--strict-sender']);
    const key = 'strict-key';
    const sendFrom = (from: string) => strict.api('/v1/send', { method: 'POST', key, json: { from, to: 'a@example.com', subject: 's', body: 'b' } });
    try {
      const refused = await sendFrom('app@strict.example');
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ status: 403, success: false, message: expect.stringContaining('strict.example') });
      expect((await sendFrom('sandbox@sendbox.local')).status).toBe(200);
      await strict.api('/v1/domains', { method: 'POST', key, json: { value: 'strict.example' } });
      expect((await sendFrom('app@strict.example')).status).toBe(403);
      await strict.api('/v1/domains/verify?domain=strict.example', { method: 'POST', key });
      expect((await sendFrom('app@strict.example')).status).toBe(200);
      expect((await sendFrom('app@strict.example')).status).toBe(200);
      await strict.api('/v1/domains?domain=strict.example', { method: 'DELETE', key });
      expect((await sendFrom('app@strict.example')).status).toBe(403);
      // Another team's verified domain does not count.
      await strict.api('/v1/domains', { method: 'POST', key: 'other-strict', json: { value: 'other.example' } });
      await strict.api('/v1/domains/verify?domain=other.example', { method: 'POST', key: 'other-strict' });
      expect((await sendFrom('app@other.example')).status).toBe(403);
    } finally {
      await strict.close();
    }
  });
});

// Plain requests take the raw-HTTP fast path (http/send-fast-path.ts); chunked, encoded or
// non-UTF-8 ones go through Express. Both must answer the same way.
describe('POST /v1/send: fast path and Express route answer alike', () => {
  const raw = (body: string, extra: Record<string, string> = {}) =>
    fetch(`${server.url}/v1/send`, { method: 'POST', headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...extra }, body });
  // A body streamed without a length is chunked: the fast path leaves it to Express.
  const chunked = (body: string) =>
    fetch(`${server.url}/v1/send`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode(body)); c.close(); } }),
      duplex: 'half',
    } as RequestInit);
  const shape = async (res: Response) => {
    const json = (await res.json()) as Record<string, unknown>;
    const headers = ['content-type', 'x-content-type-options', 'referrer-policy', 'x-frame-options', 'content-security-policy'].map((h) => res.headers.get(h));
    return { status: res.status, headers, keys: Object.keys(json).sort(), message: json.message, success: json.success };
  };

  for (const [what, body] of [
    ['a valid send', JSON.stringify({ to: 'same@example.com', subject: 'Same', body: 'Same' })],
    ['malformed JSON', '{"to":'],
    ['a JSON array', '[1]'],
    ['a JSON string', '"hello"'],
    ['an empty body', ''],
    ['an invalid field', JSON.stringify({ to: 'nobody', subject: 'x', body: 'x' })],
  ] as const) {
    it(`for ${what}`, async () => {
      const fast = await shape(await raw(body));
      const viaExpress = await shape(await chunked(body));
      expect(fast).toEqual(viaExpress);
      expect(fast.headers.every((h) => h !== null)).toBe(true);
      if (fast.status !== 200) expect(fast).toMatchObject({ success: false, keys: expect.arrayContaining(['status', 'message', 'timestamp']) });
    });
  }

  it('reads the same text from ASCII, UTF-8 and broken UTF-8 bodies (the fast path copies ASCII as latin1)', async () => {
    const stored = async (res: Response) => {
      const id = ((await res.json()) as { data: { email_id: string }[] }).data[0].email_id;
      const email = (await (await fetch(`${server.url}/v1/emails/${id}`, { headers: { Authorization: `Bearer ${KEY}` } })).json()) as { data: { subject: string; metadata: { text: string } } };
      return [email.data.subject, email.data.metadata.text];
    };
    const bodies = [
      JSON.stringify({ to: 'utf8@example.com', subject: 'Grüße 日本 😀', body: 'Grüße 日本 😀 ünïcödé' }),
      JSON.stringify({ to: 'utf8@example.com', subject: 'Gr\u00fc\u00dfe', body: 'escaped \u65e5\u672c' }).replaceAll('\\\\u', '\\u'),
    ];
    const expected = [['Grüße 日本 😀', 'Grüße 日本 😀 ünïcödé'], ['Grüße', 'escaped 日本']];
    for (const [i, body] of bodies.entries()) {
      expect(await stored(await raw(body))).toEqual(expected[i]);
      expect(await stored(await chunked(body))).toEqual(expected[i]);
    }
    // Bytes that are not UTF-8 read as U+FFFD either way.
    const broken = Buffer.concat([Buffer.from('{"to":"utf8@example.com","subject":"bad \xff byte","body":"x '), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const fastBroken = await fetch(`${server.url}/v1/send`, { method: 'POST', headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' }, body: broken });
    const [subject, text] = await stored(fastBroken);
    expect(subject).toContain('bad');
    expect(text).toBe('x \ufffd(');
  });

  it('stores long attachments the same whether their content is kept as bytes (fast path) or parsed (Express)', async () => {
    const file = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919) % 256));
    const files = [file(300_000), file(50_000), file(100)];
    const body = JSON.stringify({
      to: 'lifted@example.com', subject: 'Lifted', body: '<p>see "content": "attached"</p>',
      attachments: files.map((bytes, i) => ({ contentType: 'application/octet-stream', filename: `f${i}.bin`, content: bytes.toString('base64') })),
    });
    // A header named like the key, with a long base64 value: lifted, found not to be an
    // attachment's content, so the whole body is parsed again.
    const withHeader = JSON.stringify({ ...JSON.parse(body), headers: { content: files[1].toString('base64') } });
    const stored = async (res: Response) => {
      const answer = await res.json();
      expect(res.status, JSON.stringify(answer)).toBe(200);
      const id = (answer as { data: { email_id: string }[] }).data[0].email_id;
      const email = (await (await fetch(`${server.url}/v1/emails/${id}`, { headers: { Authorization: `Bearer ${KEY}` } })).json()) as { data: { size: number; attachments: number } };
      const rawMessage = Buffer.from(await (await fetch(`${server.url}/sandbox/emails/${id}/raw`)).arrayBuffer());
      const parsed = await simpleParser(rawMessage);
      return { size: email.data.size, length: rawMessage.length, count: email.data.attachments, files: parsed.attachments.map((a) => a.content.toString('base64')) };
    };
    const fast = await stored(await raw(body));
    expect(fast.files).toEqual(files.map((f) => f.toString('base64')));
    expect(fast).toEqual(await stored(await chunked(body)));
    expect(fast.size).toBe(fast.length);
    // Refused (a header value is at most 4 096 characters) with the same answer both ways.
    const headerFast = await raw(withHeader);
    const headerExpress = await chunked(withHeader);
    expect(headerFast.status).toBe(422);
    const [fastAnswer, expressAnswer] = [await headerFast.json(), await headerExpress.json()];
    expect({ ...fastAnswer, timestamp: 0 }).toEqual({ ...expressAnswer, timestamp: 0 });
    expect(fastAnswer.errors).toEqual([{ field: 'headers.content', message: expect.stringContaining('4096') }]);
    // Not base64 (the URL-safe alphabet): the same 422 both ways.
    const urlSafe = JSON.stringify({ to: 'a@example.com', subject: 's', body: 'b', attachments: [{ filename: 'u', contentType: 'a/b', content: files[0].toString('base64url') }] });
    const fastError = await raw(urlSafe);
    expect(fastError.status).toBe(422);
    expect(await fastError.json()).toMatchObject({ errors: [{ field: 'attachments.0.content' }] });
    expect((await chunked(urlSafe)).status).toBe(422);
  });

  it('leaves an unknown key to the 401 of the Express route', async () => {
    const res = await fetch(`${server.url}/v1/send`, { method: 'POST', headers: { Authorization: 'Bearer', 'Content-Type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ status: 401, success: false });
  });
});
