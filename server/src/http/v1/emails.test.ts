import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, eventually, type TestServer } from '../../../test/harness.js';

let server: TestServer;
const KEY = 'list-key-a';
const OTHER = 'list-key-b';
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer();
  // Sent one after another so created_at and ids are strictly ordered.
  const fixtures = [
    { name: 'welcome', json: { to: 'alice@example.com', subject: 'Welcome aboard', body: 'Hi Alice', from: 'Team Acme <team@acme.test>' } },
    { name: 'reset', json: { to: 'bob@example.org', subject: 'Reset your password', body: 'Reset link', from: 'security@acme.test' } },
    { name: 'bounce', json: { to: 'carol+bounced@example.com', subject: 'Invoice #42', body: 'Your invoice' } },
    { name: 'receipt', json: { to: 'dave@example.net', cc: 'Erin Example <erin@example.com>', subject: 'Receipt', body: 'Paid' } },
  ];
  for (const f of fixtures) {
    const res = await server.api('/v1/send', { method: 'POST', key: KEY, json: f.json });
    ids[f.name] = res.body.data[0].email_id;
  }
  await server.api('/v1/send', { method: 'POST', key: OTHER, json: { to: 'alice@example.com', subject: 'Other team', body: 'x' } });
  await eventually(async () => {
    const res = await server.api('/v1/emails?status=processing,queued', { key: KEY });
    return res.body.data.pagination.total_records === 0;
  }, 5000, 'lifecycles to finish');
});
afterAll(async () => {
  await server.close();
});

const list = async (query: string, key = KEY) => server.api(`/v1/emails${query}`, { key });
const subjects = (res: { body: any }) => res.body.data.data.map((e: { subject: string }) => e.subject);

describe('GET /v1/emails', () => {
  it('lists newest first with list-shaped records and pagination', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(200);
    expect(typeof res.body.message).toBe('string');
    expect(subjects(res)).toEqual(['Receipt', 'Invoice #42', 'Reset your password', 'Welcome aboard']);
    expect(res.body.data.pagination).toEqual({ page: 1, total_records: 4, total_pages: 1, limit: 10 });
    const first = res.body.data.data[0];
    expect(first.logs).toBeUndefined();
    expect(first.metadata.text).toBe('');
    expect(first.metadata.html).toBe('');
    expect(first.metadata.cc).toEqual(['Erin Example <erin@example.com>']);
  });

  it('paginates with true totals, and a page past the end is empty', async () => {
    const page2 = await list('?limit=3&page=2');
    expect(subjects(page2)).toEqual(['Welcome aboard']);
    expect(page2.body.data.pagination).toEqual({ page: 2, total_records: 4, total_pages: 2, limit: 3 });
    const far = await list('?page=99999999999999999999&api_key_id=99999999999999999999');
    expect(far.status).toBe(200);
    expect(far.body.data.data).toEqual([]);
    const past = await list('?limit=3&page=9');
    expect(past.body.data.data).toEqual([]);
    expect(past.body.data.pagination).toEqual({ page: 9, total_records: 4, total_pages: 2, limit: 3 });
  });

  it('filters by status, one or a comma list', async () => {
    expect(subjects(await list('?status=bounced'))).toEqual(['Invoice #42']);
    expect(subjects(await list('?status=bounced,delivered'))).toHaveLength(4);
    const none = await list('?status=complaint');
    expect(none.body.data.pagination).toEqual({ page: 1, total_records: 0, total_pages: 0, limit: 10 });
  });

  it('searches subject, any recipient and the sender name and address, case-insensitively', async () => {
    expect(subjects(await list('?search=PASSWORD'))).toEqual(['Reset your password']);
    expect(subjects(await list('?search=example.org'))).toEqual(['Reset your password']);
    expect(subjects(await list('?search=erin@'))).toEqual(['Receipt']);
    expect(subjects(await list('?search=Team%20Acme'))).toEqual(['Welcome aboard']);
    expect(subjects(await list('?search=security@acme'))).toEqual(['Reset your password']);
    expect(subjects(await list('?search=%2342'))).toEqual(['Invoice #42']);
    expect(subjects(await list('?search=zz'))).toEqual([]);
    // NUL ends FTS5's query string early: it must not turn a search into a 500.
    expect((await list('?search=inv%00oice')).status).toBe(200);
    expect((await list('?search=%00%00%00')).status).toBe(200);
  });

  it('filters by dates (inclusive; a bare date is the whole UTC day) and api_key_id, combined with others', async () => {
    const all = (await list('')).body.data.data as { subject: string; created_at: string; api_key_id: number }[];
    const reset = all.find((e) => e.subject === 'Reset your password')!;
    expect(subjects(await list(`?start_date=${reset.created_at}&end_date=${reset.created_at}`))).toEqual(['Reset your password']);
    const today = reset.created_at.slice(0, 10);
    expect(subjects(await list(`?start_date=${today}&end_date=${today}`))).toHaveLength(4);
    expect(subjects(await list('?end_date=2001-01-01'))).toEqual([]);
    expect(subjects(await list(`?api_key_id=${reset.api_key_id}&status=delivered&search=re`))).toEqual(['Receipt', 'Reset your password']);
    expect(subjects(await list(`?api_key_id=${reset.api_key_id + 1000}`))).toEqual([]);
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=abc', 'page'],
    ['limit=101', 'limit'],
    ['limit=0', 'limit'],
    ['limit=2.5', 'limit'],
    ['status=sent', 'status'],
    ['status=delivered,nope', 'status'],
    ['start_date=yesterday', 'start_date'],
    ['end_date=2026-13-45', 'end_date'],
    ['api_key_id=x', 'api_key_id'],
    ['page=1&page=2', 'page'],
    ['start_date=2026-02-30', 'start_date'],
    ['end_date=2026-01-31T24:00:00Z', 'end_date'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const res = await list(`?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(400);
    expect(res.body.message).toContain(name);
  });
});

describe('GET /v1/emails/{id} and /logs', () => {
  it('returns the full record with chronological logs', async () => {
    const res = await server.api(`/v1/emails/${ids.bounce}`, { key: KEY });
    expect(res.status).toBe(200);
    const email = res.body.data;
    expect(email.status).toBe('bounced');
    expect(email.delivered_at).toBeNull();
    expect(email.metadata.text).toBe('Your invoice');
    expect(email.logs.map((l: { status: string }) => l.status)).toEqual(['processing', 'queued', 'bounced']);
    const [processing, queued, bounced] = email.logs;
    expect(Object.keys(processing).sort()).toEqual(['code', 'email_id', 'from', 'mx_hostname', 'queued_at', 'recipient', 'recipient_type', 'response', 'status', 'subject', 'team_id', 'time', 'to'].sort());
    expect(processing).toMatchObject({ email_id: ids.bounce, code: '', mx_hostname: '', queued_at: '', from: 'sandbox@sendbox.local', to: 'carol+bounced@example.com', recipient: 'carol+bounced@example.com', recipient_type: 'to', subject: 'Invoice #42', team_id: email.team_id });
    expect(queued).toMatchObject({ code: '250', mx_hostname: 'mx.example.com' });
    expect(queued.queued_at).toMatch(/Z$/);
    expect(bounced.code).toMatch(/^5\d\d$/);
    expect(bounced.response).toMatch(/^5\.\d\.\d/);
    expect(Number.isInteger(bounced.time)).toBe(true);
    const logs = await server.api(`/v1/emails/${ids.bounce}/logs`, { key: KEY });
    expect(logs.body).toMatchObject({ status: 200, message: expect.any(String) });
    expect(logs.body.data).toEqual(email.logs);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of ['0000000000000000', 'nope', ids.reset.replace(/.$/, (c) => (c === '0' ? '1' : '0'))]) {
      const res = await server.api(`/v1/emails/${id}`, { key: KEY });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 404, message: 'Email not found' });
    }
  });
});

describe('team isolation', () => {
  it('answers 404 for another team\'s email, exactly as if it did not exist', async () => {
    for (const path of [`/v1/emails/${ids.reset}`, `/v1/emails/${ids.reset}/logs`]) {
      const res = await server.api(path, { key: OTHER });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 404, message: 'Email not found' });
    }
    expect(subjects(await list('', OTHER))).toEqual(['Other team']);
    expect(subjects(await list('?search=Welcome', OTHER))).toEqual([]);
  });

  it('keeps a stable api_key_id and team per key', async () => {
    const a1 = (await list('')).body.data.data[0];
    await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'z@example.com', subject: 'again', body: 'x' } });
    const a2 = (await list('')).body.data.data[0];
    const b = (await list('', OTHER)).body.data.data[0];
    expect(a2.api_key_id).toBe(a1.api_key_id);
    expect(a2.team_id).toBe(a1.team_id);
    expect(b.api_key_id).not.toBe(a1.api_key_id);
    expect(b.team_id).not.toBe(a1.team_id);
  });
});
