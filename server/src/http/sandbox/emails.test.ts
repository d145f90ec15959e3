import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, eventually, type TestServer } from '../../../test/harness.js';

/** The sandbox read API (CONTRACT §6, §8): list, view, raw, attachments, read flag, delete, teams. */
let server: TestServer;
const KEY = 'read-key';
const OTHER = 'read-other-key';
const teamOf = (key: string) => `team_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
const fixture = (name: string) => readFileSync(new URL(`../../emails/fixtures/${name}`, import.meta.url), 'utf8');
const PDF = Buffer.from('%PDF-1.4\n% sendbox test file\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2210bc10000000049454e44ae426082', 'hex');
const RESET_URL = 'https://app.acme.test/account/reset-password?token=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08&email=jane.doe%40example.com';

let resetId: string;
let otpId: string;

beforeAll(async () => {
  server = await startServer();
  const reset = await server.api('/v1/send', {
    method: 'POST',
    key: KEY,
    json: {
      from: 'Acme <no-reply@acme.test>',
      to: 'jane.doe@example.com',
      subject: 'Reset your Acme password',
      body: fixture('reset.html').replace('<img src="https://cdn.acme.test/logo-2x.png"', '<img src="cid:logo"'),
      headers: { 'X-Entity-Ref-ID': 'reset-1' },
      attachments: [
        { filename: 'rapport "final" é.pdf', content: PDF.toString('base64'), contentType: 'application/pdf' },
        { filename: 'logo.png', content: PNG.toString('base64'), contentType: 'image/png', contentId: 'logo' },
      ],
    },
  });
  expect(reset.status).toBe(200);
  resetId = reset.body.data[0].email_id;
  const otp = await server.api('/v1/send', { method: 'POST', key: OTHER, json: { from: 'security@acme.test', to: 'jane.doe@example.com', subject: 'Your Acme sign-in code', body: fixture('otp.txt') } });
  otpId = otp.body.data[0].email_id;
});
afterAll(async () => {
  await server.close();
});

describe('GET /sandbox/emails/{id}', () => {
  it('is the /v1 email plus team, read flag, source, flags, raw, headers, files, links, codes, outcomes, checks and events', async () => {
    const { status, body } = await server.api(`/sandbox/emails/${resetId}`);
    expect(status).toBe(200);
    const email = body.data;
    const v1 = (await server.api(`/v1/emails/${resetId}`, { key: KEY })).body.data;
    for (const field of ['id', 'message_id', 'from_address', 'to_addresses', 'subject', 'size', 'inline', 'attachments', 'api_key_id', 'snippet', 'created_at', 'team_id', 'metadata', 'credits_used']) {
      expect(email[field], field).toEqual(v1[field]);
    }
    expect(email.team_id).toBe(teamOf(KEY));
    expect(email).toMatchObject({ is_read: false, source: 'api', flags: { unverified_sender: true }, attachments: 1, inline: 1 });
    expect(email.raw).toContain('Subject: Reset your Acme password');
    expect(Buffer.byteLength(email.raw)).toBe(email.size);
    expect(email.headers.slice(0, 7).map((h: { name: string }) => h.name)).toEqual(['From', 'To', 'Reply-To', 'Subject', 'Date', 'Message-ID', 'MIME-Version']);
    expect(email.headers).toContainEqual({ name: 'X-Entity-Ref-ID', value: 'reset-1' });
    expect(email.headers).toContainEqual({ name: 'From', value: 'Acme <no-reply@acme.test>' });
    expect(email.files).toEqual([
      { index: 0, filename: 'logo.png', content_type: 'image/png', size: PNG.length, content_id: 'logo', inline: true, url: `/sandbox/emails/${resetId}/attachments/0` },
      { index: 1, filename: 'rapport "final" é.pdf', content_type: 'application/pdf', size: PDF.length, content_id: null, inline: false, url: `/sandbox/emails/${resetId}/attachments/1` },
    ]);
    expect(email.links).toContainEqual({ href: RESET_URL, text: 'Reset password' });
    expect(email.codes).toEqual([]);
    expect(email.outcomes).toEqual([{ recipient: 'jane.doe@example.com', state: expect.any(String), decided_by: 'default' }]);
    expect(email.events).toEqual([]);
    const ids = email.checks.map((c: { id: string }) => c.id);
    expect(ids).toContain('unverified-sender');
    expect(ids).not.toContain('missing-inline-image');
    for (const check of email.checks) expect(['error', 'warning', 'info']).toContain(check.severity);
  });

  it('gives the OTP of a text email as its code, and its links', async () => {
    const email = (await server.api(`/sandbox/emails/${otpId}`)).body.data;
    expect(email.codes).toEqual([{ value: '482913' }]);
    expect(email.links).toEqual([{ href: 'https://app.acme.test/security/lock?session=f3a9c2e41b8d&ref=otp-email', text: 'https://app.acme.test/security/lock?session=f3a9c2e41b8d&ref=otp-email' }]);
    expect(email.files).toEqual([]);
  });

  it('gives the OTP of an HTML email', async () => {
    const res = await server.api('/v1/send', { method: 'POST', key: OTHER, json: { to: 'jane@example.com', subject: 'Your code', body: fixture('otp.html') } });
    const email = (await server.api(`/sandbox/emails/${res.body.data[0].email_id}`)).body.data;
    expect(email.codes).toEqual([{ value: '482913' }]);
    expect(email.links.map((l: { text: string }) => l.text)).toEqual(['Lock your account']);
  });

  it('flags lint findings: images without alt, localhost and plain-http links, missing cid', async () => {
    const html = '<p>Hi <img src="http://cdn.example.com/a.png"> <a href="http://localhost:3000/verify?t=1">Verify</a> <a href="http://example.com/x">x</a> <img src="cid:nope" alt="x"></p>';
    const res = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'lint@example.com', subject: '', body: html } });
    const checks = (await server.api(`/sandbox/emails/${res.body.data[0].email_id}`)).body.data.checks;
    const byId = Object.fromEntries(checks.map((c: { id: string; severity: string; message: string }) => [c.id, c]));
    expect(byId['image-without-alt']).toMatchObject({ severity: 'warning', message: expect.stringContaining('1 image without alt text') });
    expect(byId['link-to-localhost']).toMatchObject({ severity: 'warning', message: expect.stringContaining('http://localhost:3000/verify?t=1') });
    expect(byId['insecure-link']).toMatchObject({ severity: 'warning' });
    expect(byId['missing-inline-image']).toMatchObject({ severity: 'error', message: expect.stringContaining('cid:nope') });
    expect(byId['empty-subject']).toMatchObject({ severity: 'warning' });
    expect(byId['no-text-part']).toBeUndefined();
  });

  it('reads a hostile message (unclosed tags, a huge unbroken line) without stalling', async () => {
    const html = '<p>' + 'x@'.repeat(200_000) + '1'.repeat(300_000) + '<a href="https://x.test/a"'.repeat(20_000) + '<img src="x"'.repeat(20_000) + '</p>';
    const res = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'hostile@example.com', subject: 'hostile', body: html } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const view = await server.api(`/sandbox/emails/${res.body.data[0].email_id}`);
    expect(view.status).toBe(200);
    expect(view.body.data.codes).toEqual([]);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    expect((await server.api('/sandbox/emails/0123456789abcdef')).status).toBe(404);
    const res = await server.api('/sandbox/emails/not-an-id');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 404, message: 'Email not-an-id not found' });
  });
});

describe('downloads', () => {
  it('serves the raw .eml as message/rfc822, as an attachment', async () => {
    const res = await fetch(`${server.url}/sandbox/emails/${resetId}/raw`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('message/rfc822');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${resetId}.eml"`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const raw = Buffer.from(await res.arrayBuffer());
    expect(raw.toString('utf8')).toBe((await server.api(`/sandbox/emails/${resetId}`)).body.data.raw);
  });

  it('serves an attachment with its type, a safe file name and nosniff', async () => {
    const res = await fetch(`${server.url}/sandbox/emails/${resetId}/attachments/1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="rapport _final_ _.pdf"; filename*=UTF-8''rapport%20%22final%22%20%C3%A9.pdf`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PDF);
    const png = await fetch(`${server.url}/sandbox/emails/${resetId}/attachments/0`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await png.arrayBuffer())).toEqual(PNG);
  });

  it('answers 404 past the last attachment and 400 for a bad index', async () => {
    expect((await server.api(`/sandbox/emails/${resetId}/attachments/2`)).status).toBe(404);
    expect((await server.api(`/sandbox/emails/${resetId}/attachments/-1`)).status).toBe(400);
    expect((await server.api(`/sandbox/emails/${otpId}/attachments/0`)).status).toBe(404);
  });
});

describe('GET /sandbox/emails', () => {
  it('lists every team newest first, with the /v1 pagination and inbox fields', async () => {
    const { status, body } = await server.api('/sandbox/emails?limit=100');
    expect(status).toBe(200);
    const teams = new Set(body.data.data.map((e: { team_id: string }) => e.team_id));
    expect(teams).toEqual(new Set([teamOf(KEY), teamOf(OTHER)]));
    const times = body.data.data.map((e: { created_at: string }) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(body.data.pagination).toEqual({ page: 1, total_records: body.data.data.length, total_pages: 1, limit: 100 });
    expect(body.data.data[0]).toMatchObject({ is_read: false, source: 'api', flags: expect.any(Object) });
    expect(body.data.data[0].metadata.html).toBe('');
  });

  it('filters by team, sender, recipient, subject, search, attachment, status and read flag', async () => {
    const ids = async (query: string) => (await server.api(`/sandbox/emails?${query}`)).body.data.data.map((e: { id: string }) => e.id);
    expect(await ids(`team_id=${teamOf(OTHER)}&subject=sign-in`)).toEqual([otpId]);
    expect(await ids('from=security@acme')).toEqual([otpId]);
    expect(await ids('to=jane.doe@&has_attachment=true')).toEqual([resetId]);
    expect(await ids('search=reset your')).toEqual([resetId]);
    expect(await ids('has_attachment=false&subject=Reset')).toEqual([]);
    await eventually(async () => (await ids(`status=delivered&team_id=${teamOf(OTHER)}&subject=sign-in`)).length === 1, 5000, 'delivered');
    await server.api(`/sandbox/emails/${otpId}`, { method: 'PATCH', json: { read: true } });
    expect(await ids('is_read=true')).toEqual([otpId]);
    expect(await ids('is_read=false&subject=sign-in')).toEqual([]);
    const paged = (await server.api('/sandbox/emails?limit=1&page=2')).body.data;
    expect(paged.data).toHaveLength(1);
    expect(paged.pagination.page).toBe(2);
  });

  it.each(['limit=0', 'page=x', 'status=sent', 'is_read=perhaps', 'has_attachment=2', 'team_id=a%20b', 'start_date=nope'])('answers 400 for %s', async (query) => {
    const res = await server.api(`/sandbox/emails?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/\w+/);
  });
});

describe('PATCH /sandbox/emails/{id}', () => {
  it('marks read and unread', async () => {
    const res = await server.api(`/sandbox/emails/${resetId}`, { method: 'PATCH', json: { read: true } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: resetId, is_read: true });
    expect((await server.api(`/sandbox/emails/${resetId}`, { method: 'PATCH', json: { read: false } })).body.data.is_read).toBe(false);
  });

  it.each([[{}], [{ read: 'yes' }], [{ read: true, subject: 'x' }]])('answers 422 for %j', async (json) => {
    const res = await server.api(`/sandbox/emails/${resetId}`, { method: 'PATCH', json });
    expect(res.status).toBe(422);
  });

  it('answers 400 for a body that is not an object and 404 for an unknown id', async () => {
    expect((await server.api(`/sandbox/emails/${resetId}`, { method: 'PATCH', json: [true] })).status).toBe(400);
    expect((await server.api('/sandbox/emails/0123456789abcdef', { method: 'PATCH', json: { read: true } })).status).toBe(404);
  });
});

describe('GET /sandbox/teams', () => {
  it('lists a mailbox per team with counts and key hints, including teams with keys but no mail', async () => {
    await server.api('/v1/emails', { key: 'mailbox-without-mail-0042' });
    const teams = (await server.api('/sandbox/teams')).body.data;
    const byTeam = Object.fromEntries(teams.map((t: { team_id: string }) => [t.team_id, t]));
    expect(byTeam[teamOf('mailbox-without-mail-0042')]).toEqual({ team_id: teamOf('mailbox-without-mail-0042'), total: 0, unread: 0, api_keys: [{ api_key_id: expect.any(Number), key_hint: '0042' }] });
    expect(byTeam[teamOf(KEY)]).toMatchObject({ total: expect.any(Number), unread: expect.any(Number), api_keys: [{ api_key_id: expect.any(Number), key_hint: '-key' }] });
    expect(teams.map((t: { team_id: string }) => t.team_id)).toEqual([...teams.map((t: { team_id: string }) => t.team_id)].sort());
  });
});

describe('deleting', () => {
  it('deletes one email (404 afterwards, in /v1 too) and all emails of a team', async () => {
    const keep = await server.api('/v1/send', { method: 'POST', key: 'delete-keep', json: { to: 'k@example.com', subject: 'keep', body: 'b' } });
    const a = await server.api('/v1/send', { method: 'POST', key: 'delete-me', json: { to: 'd@example.com', subject: 'a', body: 'b' } });
    await server.api('/v1/send', { method: 'POST', key: 'delete-me', json: { to: 'd@example.com', subject: 'b', body: 'b' } });
    const aId = a.body.data[0].email_id;
    const gone = await server.api(`/sandbox/emails/${aId}`, { method: 'DELETE', json: {} });
    expect(gone.body).toEqual({ status: 200, message: 'Email deleted', data: { id: aId, team_id: teamOf('delete-me') } });
    expect((await server.api(`/sandbox/emails/${aId}`)).status).toBe(404);
    expect((await server.api(`/v1/emails/${aId}`, { key: 'delete-me' })).status).toBe(404);
    expect((await server.api(`/sandbox/emails/${aId}`, { method: 'DELETE', json: {} })).status).toBe(404);

    const cleared = await server.api(`/sandbox/emails?team_id=${teamOf('delete-me')}`, { method: 'DELETE', json: {} });
    expect(cleared.body.data).toEqual({ team_id: teamOf('delete-me'), deleted: 1 });
    expect((await server.api(`/sandbox/emails?team_id=${teamOf('delete-me')}`)).body.data.pagination.total_records).toBe(0);
    expect((await server.api(`/sandbox/emails/${keep.body.data[0].email_id}`)).status).toBe(200);
  });
});
