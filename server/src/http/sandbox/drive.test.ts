import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, eventually, type TestServer } from '../../../test/harness.js';

/** Driving (CONTRACT §6, §8): forced transitions, opens and clicks, reset. */
let server: TestServer;
const KEY = 'drive-key';
const teamOf = (key: string) => `team_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await server.api('/sandbox/delivery/pause', { method: 'POST', json: {} });
});

async function send(to: string | string[], key = KEY): Promise<string> {
  const res = await server.api('/v1/send', { method: 'POST', key, json: { to, subject: 'Drive', body: 'Hello' } });
  expect(res.status).toBe(200);
  return res.body.data[0].email_id;
}
const force = (id: string, json: Record<string, unknown>) => server.api(`/sandbox/emails/${id}/events`, { method: 'POST', json });
const steps = (logs: { status: string; code: string; recipient: string }[]) => logs.map((l) => `${l.recipient}:${l.status}:${l.code}`);

async function queued(id: string) {
  return eventually(async () => {
    const email = (await server.api(`/sandbox/emails/${id}`)).body.data;
    return email.status === 'queued' ? email : undefined;
  }, 5000, 'queued');
}

describe('forced transitions', () => {
  it('forces bounced on a queued recipient, writing the final step with a realistic code', async () => {
    const id = await send('q@example.com');
    await queued(id);
    const res = await force(id, { type: 'bounced' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('bounced');
    expect(res.body.data.outcomes).toEqual([{ recipient: 'q@example.com', state: 'bounced', decided_by: 'forced' }]);
    expect(steps(res.body.data.logs)).toEqual(['q@example.com:processing:', 'q@example.com:queued:250', 'q@example.com:bounced:550']);
  });

  it('forces delivered on a processing recipient, writing queued in between', async () => {
    // A slow server keeps the email in processing.
    const slow = await startServer(['--delay-ms', '60000']);
    try {
      const id = (await slow.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'p@example.com', subject: 's', body: 'b' } })).body.data[0].email_id;
      expect((await slow.api(`/sandbox/emails/${id}`)).body.data.status).toBe('processing');
      const res = await slow.api(`/sandbox/emails/${id}/events`, { method: 'POST', json: { type: 'delivered' } });
      expect(res.body.data.status).toBe('delivered');
      expect(steps(res.body.data.logs)).toEqual(['p@example.com:processing:', 'p@example.com:queued:250', 'p@example.com:delivered:250']);
      expect(res.body.data.delivered_at).not.toBeNull();
    } finally {
      await slow.close();
    }
  });

  it('turns a delivered recipient into a complaint; complaint on a queued one is 409', async () => {
    const id = await send('c@example.com');
    await queued(id);
    const early = await force(id, { type: 'complaint' });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('Cannot force complaint: complaint needs a delivered recipient: c@example.com is queued');
    await force(id, { type: 'delivered' });
    const res = await force(id, { type: 'complaint', recipient: 'C@example.com' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('complaint');
    expect(res.body.data.logs.at(-1)).toMatchObject({ status: 'complaint', code: '' });
    const record = (await server.api(`/v1/emails/${id}`, { key: KEY })).body.data;
    expect(record.logs.map((l: { status: string }) => l.status)).toEqual(['processing', 'queued', 'delivered']);
  });

  it('answers 409 for a move out of a final state', async () => {
    const id = await send('f@example.com');
    await queued(id);
    await force(id, { type: 'failed' });
    for (const type of ['delivered', 'bounced', 'failed', 'complaint']) {
      const res = await force(id, { type });
      expect(res.status, type).toBe(409);
    }
    const delivered = await send('d@example.com');
    await queued(delivered);
    await force(delivered, { type: 'delivered' });
    expect((await force(delivered, { type: 'bounced' })).status).toBe(409);
  });

  it('without recipient applies to every recipient that can move, with one recipient to the named one only', async () => {
    const id = await send(['a@example.com', 'b@example.com', 'c@example.com']);
    await queued(id);
    await force(id, { type: 'bounced', recipient: 'b@example.com' });
    const res = await force(id, { type: 'delivered' });
    expect(res.body.data.outcomes.map((o: { state: string }) => o.state)).toEqual(['delivered', 'bounced', 'delivered']);
    expect(res.body.data.status).toBe('bounced');
  });

  it('answers 422 for a recipient that is not on the email', async () => {
    const id = await send('only@example.com');
    const res = await force(id, { type: 'delivered', recipient: 'other@example.com' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ field: 'recipient', message: 'not a recipient' }]);
  });
});

describe('opens and clicks', () => {
  it('need a delivered recipient; opens set opened_at once, clicks count every click', async () => {
    const id = await send(['o1@example.com', 'o2@example.com']);
    await queued(id);
    const early = await force(id, { type: 'open' });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/needs a delivered recipient/);
    await force(id, { type: 'delivered', recipient: 'o1@example.com' });

    const opened = await force(id, { type: 'open' });
    expect(opened.status).toBe(200);
    const openedAt = opened.body.data.opened_at;
    expect(openedAt).not.toBeNull();
    expect(opened.body.data.events).toEqual([{ type: 'open', recipient: 'o1@example.com', url: null, at: openedAt }]);
    const again = await force(id, { type: 'open', recipient: 'o1@example.com' });
    expect(again.body.data.opened_at).toBe(openedAt);

    await force(id, { type: 'click', url: 'https://acme.test/welcome' });
    const clicked = await force(id, { type: 'click', recipient: 'o1@example.com' });
    expect(clicked.body.data.click_count).toBe(2);
    expect(clicked.body.data.events.map((e: { type: string; url: string | null }) => `${e.type}:${e.url}`)).toEqual(['open:null', 'open:null', 'click:https://acme.test/welcome', 'click:null']);
    expect((await force(id, { type: 'click', recipient: 'o2@example.com' })).status).toBe(409);
    const v1 = (await server.api(`/v1/emails/${id}`, { key: KEY })).body.data;
    expect(v1).toMatchObject({ opened_at: openedAt, click_count: 2 });
  });
});

describe('bad input', () => {
  it.each([
    [{ type: 'opened' }, 'type'],
    [{}, 'type'],
    [{ type: 'click', url: 'javascript:alert(1)' }, 'url'],
    [{ type: 'open', url: 'https://x.test' }, 'url'],
    [{ type: 'delivered', recipient: 5 }, 'recipient'],
    [{ type: 'delivered', extra: true }, 'extra'],
  ])('answers 422 for %j', async (json, field) => {
    const id = await send('bad@example.com');
    const res = await force(id, json);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe(field);
  });

  it('answers 404 for an unknown email and 400 for a non-object body', async () => {
    expect((await force('0123456789abcdef', { type: 'delivered' })).status).toBe(404);
    const id = await send('bad@example.com');
    expect((await server.api(`/sandbox/emails/${id}/events`, { method: 'POST', json: 'delivered' })).status).toBe(400);
    expect((await server.api(`/sandbox/emails/${id}/events`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"type":' })).status).toBe(400);
  });
});

describe('reset', () => {
  it('empties one team (emails, rules, domains) and leaves the others', async () => {
    await server.api('/sandbox/delivery/resume', { method: 'POST', json: {} });
    const keep = await send('keep@example.com', 'reset-keep');
    await send('gone@example.com', 'reset-gone');
    await server.api('/v1/domains', { method: 'POST', key: 'reset-gone', json: { value: 'gone.example' } });
    await server.api('/v1/domains', { method: 'POST', key: 'reset-keep', json: { value: 'kept.example' } });
    await server.api('/sandbox/rules', { method: 'POST', json: { match: { team_id: teamOf('reset-gone') }, action: { outcome: 'bounced' } } });
    const global = (await server.api('/sandbox/rules', { method: 'POST', json: { action: { outcome: 'delivered' }, match: { recipient: 'nobody@example.com' } } })).body.data;

    const res = await server.api('/sandbox/reset', { method: 'POST', json: { team_id: teamOf('reset-gone') } });
    expect(res.body.data).toEqual({ team_id: teamOf('reset-gone'), emails: 1, rules: 1, domains: 1 });
    expect((await server.api(`/sandbox/emails?team_id=${teamOf('reset-gone')}`)).body.data.pagination.total_records).toBe(0);
    expect((await server.api('/v1/domains', { key: 'reset-gone' })).body.data).toEqual([]);
    expect((await server.api('/v1/domains', { key: 'reset-keep' })).body.data).toHaveLength(1);
    expect((await server.api(`/sandbox/emails/${keep}`)).status).toBe(200);
    expect((await server.api('/sandbox/rules')).body.data.map((r: { id: number }) => r.id)).toEqual([global.id]);
  });

  it('empties everything without a body', async () => {
    await send('any@example.com');
    const res = await server.api('/sandbox/reset', { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body.data.team_id).toBeNull();
    expect((await server.api('/sandbox/emails')).body.data.pagination.total_records).toBe(0);
    expect((await server.api('/sandbox/rules')).body.data).toEqual([]);
    expect((await server.api('/sandbox/health')).body.data.emails).toBe(0);
  });

  it.each([[{ team_id: 5 }], [{ team_id: 'bad team' }], [{ everything: true }]])('answers 422 for %j', async (json) => {
    expect((await server.api('/sandbox/reset', { method: 'POST', json })).status).toBe(422);
  });
});
