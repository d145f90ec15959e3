import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, eventually, type TestServer } from '../../../test/harness.js';
import { listen, type SseClient } from '../../../test/hardening/lib/sse.js';
import { queuedId, sendWithNodemailer, sendWithPython } from '../../../test/smtp/client.js';

/** Tags, the search language (`?q=`) and bulk actions (CONTRACT §9), against a real server, SQLite and SMTP. */
let server: TestServer;
let sse: SseClient;
const KEY = 'tags-key';
const team = (key: string) => `team_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
const TEAM = team(KEY);

beforeAll(async () => {
  server = await startServer();
  sse = listen(server.url);
  await sse.ready;
});
afterAll(async () => {
  await sse?.close();
  await server?.close();
});

async function send(key: string, json: Record<string, unknown>): Promise<string> {
  const res = await server.api('/v1/send', { method: 'POST', key, json: { from: 'app@acme.test', to: 'user@example.com', subject: 's', body: 'hello', ...json } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data[0].email_id;
}

/** The subjects `q` finds within one team, newest first. */
async function search(key: string, q: string): Promise<string[]> {
  const res = await server.api(`/sandbox/emails?team_id=${team(key)}&limit=100&q=${encodeURIComponent(q)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.data.map((e: { subject: string }) => e.subject);
}

const changed = () => sse.events.filter((e) => e.type === 'emails.changed').map((e) => e.data as Record<string, unknown>);

describe('tags', () => {
  it('takes X-Tags from an API send and from SMTP, and shows them in the list and the view', async () => {
    const api = await send(KEY, { subject: 'tagged by api', headers: { 'X-Tags': 'signup, Welcome,signup' } });
    const sent = await sendWithNodemailer(server.smtpPort, { from: 'app@acme.test', to: 'u@example.com', subject: 'tagged by smtp', text: 'hi', headers: { 'X-Tags': 'newsletter,  weekly ' } }, { auth: { user: 'apikey', pass: KEY } });
    const smtp = queuedId(sent.info.response);
    expect((await server.api(`/sandbox/emails/${api}`)).body.data.tags).toEqual(['signup', 'Welcome']);
    expect((await server.api(`/sandbox/emails/${smtp}`)).body.data.tags).toEqual(['newsletter', 'weekly']);
    const list = await server.api(`/sandbox/emails?team_id=${TEAM}&q=${encodeURIComponent('tag:WELCOME')}`);
    expect(list.body.data.data.map((e: { id: string; tags: string[] }) => [e.id, e.tags])).toEqual([[api, ['signup', 'Welcome']]]);
  });

  it('takes a long X-Tags from Python smtplib too (its email package folds long headers)', async () => {
    const tags = ['cron-jobs-of-the-backup-system', 'nightly-maintenance-window', 'storage-cluster-eu-west'];
    const sent = await sendWithPython({ port: server.smtpPort, from: 'cron@acme.test', to: ['ops@example.com'], subject: 'nightly job', text: 'ok', headers: { 'X-Tags': tags.join(', ') }, user: 'apikey', password: KEY });
    expect(sent.data?.[0]).toBe(250);
    const list = await server.api(`/sandbox/emails?team_id=${TEAM}&q=${encodeURIComponent('tag:nightly-maintenance-window tag:storage-cluster-eu-west')}`);
    expect(list.body.data.data.map((e: { subject: string; tags: string[] }) => [e.subject, e.tags])).toEqual([['nightly job', tags]]);
  });

  it('replaces an email\'s tags with PUT and announces it in one event', async () => {
    const id = await send(KEY, { subject: 'retag me', headers: { 'X-Tags': 'old' } });
    const res = await server.api(`/sandbox/emails/${id}/tags`, { method: 'PUT', json: { tags: [' urgent ', 'Billing', 'urgent'] } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, tags: ['urgent', 'Billing'] });
    const event = await eventually(() => changed().find((e) => e.action === 'set_tags' && (e.ids as string[])[0] === id), 5000, 'the set_tags event');
    expect(event).toEqual({ action: 'set_tags', ids: [id], tags: ['urgent', 'Billing'], count: 1, team_id: TEAM });
    expect(await search(KEY, 'tag:old subject:retag')).toEqual([]);
    expect(await search(KEY, 'tag:billing subject:retag')).toEqual(['retag me']);
  });

  it('refuses bad tag bodies with a 422 naming the field', async () => {
    const id = await send(KEY, { subject: 'bad tags' });
    const cases: [unknown, string][] = [[{}, 'tags'], [{ tags: 'a' }, 'tags'], [{ tags: [''] }, 'tags.0'], [{ tags: ['x'.repeat(65)] }, 'tags.0'], [{ tags: [1] }, 'tags.0'], [{ tags: [], extra: 1 }, 'extra']];
    for (const [json, field] of cases) {
      const res = await server.api(`/sandbox/emails/${id}/tags`, { method: 'PUT', json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.body.errors[0].field, JSON.stringify(json)).toBe(field);
    }
    expect((await server.api('/sandbox/emails/nope/tags', { method: 'PUT', json: { tags: [] } })).status).toBe(404);
  });

  it('tags mail automatically with a tagging rule, matched like any rule', async () => {
    const rule = await server.api('/sandbox/rules', { method: 'POST', json: { match: { recipient: '*@vip.test', subject: 'order' }, action: { tags: ['vip', 'orders'] } } });
    expect(rule.status).toBe(201);
    try {
      const hit = await send(KEY, { subject: 'Your order', to: 'ann@vip.test', headers: { 'X-Tags': 'shop' } });
      const miss = await send(KEY, { subject: 'Your order', to: 'ann@other.test' });
      expect((await server.api(`/sandbox/emails/${hit}`)).body.data.tags).toEqual(['shop', 'vip', 'orders']);
      expect((await server.api(`/sandbox/emails/${miss}`)).body.data.tags).toEqual([]);
      // A tagging rule does not decide the outcome: delivery follows the usual defaults.
      expect((await server.api(`/sandbox/emails/${hit}`)).body.data.outcomes[0].decided_by).toBe('default');
    } finally {
      await server.api(`/sandbox/rules/${rule.body.data.id}`, { method: 'DELETE' });
    }
    const bad = await server.api('/sandbox/rules', { method: 'POST', json: { action: { tags: [] } } });
    expect(bad.status).toBe(422);
  });

  it('lists tags with counts, renames one across all mail and deletes one', async () => {
    const key = 'tags-rename-key';
    const a = await send(key, { subject: 'r1', headers: { 'X-Tags': 'beta, keep' } });
    const b = await send(key, { subject: 'r2', headers: { 'X-Tags': 'beta' } });
    const c = await send(key, { subject: 'r3', headers: { 'X-Tags': 'gamma, Beta2' } });
    expect((await server.api(`/sandbox/tags?team_id=${team(key)}`)).body.data).toEqual([{ tag: 'beta', count: 2 }, { tag: 'Beta2', count: 1 }, { tag: 'gamma', count: 1 }, { tag: 'keep', count: 1 }]);

    const renamed = await server.api('/sandbox/tags/beta', { method: 'PUT', json: { name: 'Gamma' } });
    expect(renamed.body.data).toMatchObject({ count: 2 });
    expect(await search(key, 'tag:gamma')).toEqual(['r3', 'r2', 'r1']);
    expect(changed().find((e) => e.action === 'rename_tag')).toEqual({ action: 'rename_tag', ids: [b, a], tags: ['beta', 'Gamma'], count: 2, team_id: team(key) });

    const deleted = await server.api('/sandbox/tags/gamma', { method: 'DELETE', headers: { 'Content-Type': 'application/json' } });
    expect(deleted.body.data).toMatchObject({ count: 3 });
    expect((await server.api(`/sandbox/emails/${c}`)).body.data.tags).toEqual(['Beta2']);
    expect((await server.api(`/sandbox/emails/${a}`)).body.data.tags).toEqual(['keep']);
    expect((await server.api('/sandbox/tags/x', { method: 'PUT', json: {} })).status).toBe(422);
    expect((await server.api('/sandbox/tags/x', { method: 'PUT', json: { name: 'y', team_id: 'bad team' } })).status).toBe(422);
  });

  it('renames and deletes a tag within one team when given team_id, leaving other teams alone', async () => {
    const [mine, theirs] = ['tags-scope-a', 'tags-scope-b'];
    const a = await send(mine, { subject: 'scoped a', headers: { 'X-Tags': 'shared' } });
    const b = await send(theirs, { subject: 'scoped b', headers: { 'X-Tags': 'shared' } });
    const renamed = await server.api('/sandbox/tags/shared', { method: 'PUT', json: { name: 'mine', team_id: team(mine) } });
    expect(renamed.body.data.count).toBe(1);
    expect((await server.api(`/sandbox/emails/${a}`)).body.data.tags).toEqual(['mine']);
    expect((await server.api(`/sandbox/emails/${b}`)).body.data.tags).toEqual(['shared']);
    const deleted = await server.api(`/sandbox/tags/shared?team_id=${team(theirs)}`, { method: 'DELETE', headers: { 'Content-Type': 'application/json' } });
    expect(deleted.body.data.count).toBe(1);
    expect((await server.api(`/sandbox/emails/${b}`)).body.data.tags).toEqual([]);
    expect((await server.api(`/sandbox/emails/${a}`)).body.data.tags).toEqual(['mine']);
  });
});

describe('the search language over ?q=', () => {
  const key = 'search-lang-key';
  let big: string;
  beforeAll(async () => {
    await send(key, { subject: 'Invoice 1', from: 'Billing <billing@shop.test>', to: 'ann@example.com', cc: 'boss@example.com', headers: { 'X-Tags': 'billing', 'X-Env': 'ci' } });
    big = await send(key, { subject: 'Big report', from: 'reports@shop.test', to: 'bob@example.com', body: 'x'.repeat(20_000), attachments: [{ filename: 'r.txt', content: Buffer.from('report').toString('base64'), contentType: 'text/plain' }] });
    await send(key, { subject: 'Password reset', from: 'security@shop.test', to: 'ann@example.com', headers: { 'X-Env': 'staging' } });
    await send(key, { subject: 'Out of office', from: 'ann@example.com', to: 'bob@example.com' });
  });

  it('filters by each field, quoted phrases and negation', async () => {
    expect(await search(key, 'from:billing')).toEqual(['Invoice 1']);
    expect(await search(key, 'to:ann')).toEqual(['Password reset', 'Invoice 1']);
    expect(await search(key, 'cc:boss')).toEqual(['Invoice 1']);
    expect(await search(key, '-cc:boss -subject:office')).toEqual(['Password reset', 'Big report']);
    expect(await search(key, 'subject:"password reset"')).toEqual(['Password reset']);
    expect(await search(key, '"out of office"')).toEqual(['Out of office']);
    expect(await search(key, '-"out of office" -report')).toEqual(['Password reset', 'Invoice 1']);
    expect(await search(key, 'tag:billing')).toEqual(['Invoice 1']);
    expect(await search(key, '-tag:billing')).toEqual(['Out of office', 'Password reset', 'Big report']);
    // Totals of a negated term are counted by subtraction (storage): they must agree with the rows.
    for (const q of ['-tag:billing', '-from:billing', '-"out of office"', '-subject:re has:attachment', '-tag:nothing', '-to:ann -tag:billing']) {
      const res = await server.api(`/sandbox/emails?team_id=${team(key)}&limit=1&q=${encodeURIComponent(q)}`);
      expect(res.body.data.pagination.total_records, q).toBe((await search(key, q)).length);
    }
    expect((await server.api(`/sandbox/emails?team_id=${team(key)}&q=${encodeURIComponent('-tag:billing')}`)).body.data.pagination.total_records).toBe(3);
    expect(await search(key, 'has:attachment')).toEqual(['Big report']);
    expect(await search(key, '-has:attachment to:bob')).toEqual(['Out of office']);
    expect(await search(key, 'larger:10KB')).toEqual(['Big report']);
    expect(await search(key, 'smaller:10KB -from:ann')).toEqual(['Password reset', 'Invoice 1']);
    expect(await search(key, 'header:X-Env=CI')).toEqual(['Invoice 1']);
    expect(await search(key, 'header:x-env')).toEqual(['Password reset', 'Invoice 1']);
    expect(await search(key, '-header:X-Env')).toEqual(['Out of office', 'Big report']);
  });

  it('filters by read flag, status and dates', async () => {
    await server.api(`/sandbox/emails/${big}`, { method: 'PATCH', json: { read: true } });
    expect(await search(key, 'is:read')).toEqual(['Big report']);
    expect(await search(key, '-is:read')).toHaveLength(3);
    expect(await search(key, 'is:unread subject:invoice')).toEqual(['Invoice 1']);
    await eventually(async () => (await search(key, 'status:delivered')).length === 4, 5000, 'delivery');
    expect(await search(key, '-status:delivered')).toEqual([]);
    expect(await search(key, 'status:bounced,failed')).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await search(key, `after:${today} before:${tomorrow}`)).toHaveLength(4);
    expect(await search(key, `before:${today}`)).toEqual([]);
    expect(await search(key, `-after:${tomorrow}`)).toHaveLength(4);
  });

  it('answers 400 naming a term it cannot parse', async () => {
    for (const [q, term] of [['status:lost', 'status:lost'], ['from:ann wat:ever', 'wat:ever'], ['larger:huge', 'larger:huge'], ['"open', '"open'], ['after:2026-13-01', 'after:2026-13-01']]) {
      const res = await server.api(`/sandbox/emails?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(400);
      expect(res.body.message, q).toContain(`Cannot parse the search term ${term}:`);
      expect(res.body.errors[0].field).toBe('q');
    }
    expect((await server.api(`/sandbox/emails?q=${'a'.repeat(2001)}`)).status).toBe(400);
  });
});

describe('bulk actions', () => {
  const key = 'bulk-key';
  let ids: string[];
  beforeAll(async () => {
    ids = [];
    for (let i = 0; i < 6; i++) ids.push(await send(key, { subject: `bulk ${i}`, headers: i % 2 ? { 'X-Tags': 'odd' } : {} }));
  });

  it('marks emails read and unread by ids, in one event', async () => {
    const res = await server.api('/sandbox/emails/bulk', { method: 'POST', json: { ids: ids.slice(0, 3), action: 'read' } });
    expect(res.body).toEqual({ status: 200, message: 'read: 3 emails', data: { action: 'read', count: 3 } });
    expect(await search(key, 'is:read')).toEqual(['bulk 2', 'bulk 1', 'bulk 0']);
    const event = await eventually(() => changed().find((e) => e.action === 'read' && (e.ids as string[]).includes(ids[0])), 5000, 'the bulk event');
    expect(event).toEqual({ action: 'read', ids: [ids[2], ids[1], ids[0]], tags: [], count: 3, team_id: team(key) });
    await server.api('/sandbox/emails/bulk', { method: 'POST', json: { q: 'is:read', team_id: team(key), action: 'unread' } });
    expect(await search(key, 'is:read')).toEqual([]);
  });

  it('tags and untags every email matching a search', async () => {
    const tagged = await server.api('/sandbox/emails/bulk', { method: 'POST', json: { q: '-tag:odd', team_id: team(key), action: 'tag', tags: ['even', 'Even'] } });
    expect(tagged.body.data).toEqual({ action: 'tag', count: 3 });
    expect(await search(key, 'tag:even')).toEqual(['bulk 4', 'bulk 2', 'bulk 0']);
    const event = changed().find((e) => e.action === 'tag');
    expect(event).toMatchObject({ tags: ['even'], count: 3 });
    await server.api('/sandbox/emails/bulk', { method: 'POST', json: { ids: [ids[0]], action: 'untag', tags: ['EVEN'] } });
    expect(await search(key, 'tag:even')).toEqual(['bulk 4', 'bulk 2']);
  });

  it('deletes by search in one request, announcing one event', async () => {
    const res = await server.api('/sandbox/emails/bulk', { method: 'POST', json: { q: 'tag:odd', team_id: team(key), action: 'delete' } });
    expect(res.body.data).toEqual({ action: 'delete', count: 3 });
    expect(await search(key, '')).toEqual(['bulk 4', 'bulk 2', 'bulk 0']);
    const deletes = changed().filter((e) => e.action === 'delete');
    expect(deletes).toEqual([{ action: 'delete', ids: [ids[5], ids[3], ids[1]], tags: [], count: 3, team_id: team(key) }]);
    expect((await server.api(`/sandbox/emails/${ids[1]}`)).status).toBe(404);
  });

  it('refuses malformed requests with a 4xx naming the field', async () => {
    const cases: [unknown, number, string][] = [
      [{ action: 'read' }, 422, 'ids'],
      [{ ids: [ids[0]], q: '', action: 'read' }, 422, 'q'],
      [{ ids: [], action: 'read' }, 422, 'ids'],
      [{ ids: ['nope'], action: 'read' }, 422, 'ids.0'],
      [{ ids: [ids[0]], action: 'archive' }, 422, 'action'],
      [{ ids: [ids[0]], action: 'tag' }, 422, 'tags'],
      [{ ids: [ids[0]], action: 'read', tags: ['x'] }, 422, 'tags'],
      [{ ids: [ids[0]], action: 'tag', tags: [' '] }, 422, 'tags.0'],
      [{ q: 'status:nope', action: 'delete' }, 400, 'q'],
      [{ q: '', action: 'read', team_id: 'bad team' }, 422, 'team_id'],
      [{ q: '', action: 'read', other: 1 }, 422, 'other'],
    ];
    for (const [json, status, field] of cases) {
      const res = await server.api('/sandbox/emails/bulk', { method: 'POST', json });
      expect(res.status, JSON.stringify(json)).toBe(status);
      expect(res.body.errors?.[0]?.field, JSON.stringify(json)).toBe(field);
    }
    expect((await server.api('/sandbox/emails/bulk', { method: 'POST', json: [] })).status).toBe(400);
    expect((await server.api('/sandbox/emails/bulk')).status).toBe(405);
    // Nothing was touched by the refused requests.
    expect(await search(key, '')).toHaveLength(3);
  });
});
