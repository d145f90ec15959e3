import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import type { SendboxEvent } from '../../../shared/events.js';
import { startServer, type TestServer } from '../../test/harness.js';

// Email events carry the inbox's list item, so the inbox can apply them without a refetch:
// what an event says must be exactly what GET /sandbox/emails would answer at that moment.
let server: TestServer;
const KEY = 'email-service-key-01';
beforeAll(async () => {
  // Paused delivery: emails wait in queued while the test compares.
  server = await startServer();
  await server.api('/sandbox/delivery/pause', { method: 'POST', json: {} });
});
afterAll(async () => {
  await server.close();
});

/** The next bus event of a type, for an email id once known. */
function nextEvent<T extends SendboxEvent['type']>(type: T, match: (event: Extract<SendboxEvent, { type: T }>) => boolean = () => true): Promise<Extract<SendboxEvent, { type: T }>> {
  return new Promise((resolve) => {
    const stop = server.sendbox.services.events.subscribe((event) => {
      if (event.type !== type) return;
      const typed = event as Extract<SendboxEvent, { type: T }>;
      if (!match(typed)) return;
      stop();
      resolve(typed);
    });
  });
}

const listItem = async (id: string) => {
  const res = await server.api('/sandbox/emails?limit=100');
  return (res.body.data.data as { id: string; status: string }[]).find((e) => e.id === id);
};

/** The list item as it was at creation: paused delivery still moves processing → queued. */
const asCreated = async (id: string) => {
  const item = await listItem(id);
  expect(['processing', 'queued']).toContain(item?.status);
  return { ...item, status: 'processing' };
};

describe('email events carry the sandbox summary', () => {
  it('email.created for an API send equals the list item', async () => {
    const created = nextEvent('email.created');
    const res = await server.api('/v1/send', { method: 'POST', key: KEY, json: { from: 'Shop <shop@acme.test>', to: ['a@example.com', 'B <b@example.com>'], cc: 'c@example.com', subject: 'Receipt', body: '<p>Thanks</p>', headers: { 'X-Env': 'ci', 'X-Tags': 'receipt, Shop' } } });
    expect(res.status).toBe(200);
    const event = await created;
    expect(event.data.id).toBe(res.body.data[0].email_id);
    // The inbox shows tag chips on a new row from the event alone.
    expect(event.data.tags).toEqual(['receipt', 'Shop']);
    expect(event.data).toEqual(await asCreated(event.data.id));
  });

  it('email.created for an SMTP message equals the list item', async () => {
    const created = nextEvent('email.created');
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: server.smtpPort, secure: false, ignoreTLS: true });
    await transport.sendMail({ from: 'App <app@acme.test>', to: 'x@example.com', bcc: 'hidden@example.com', subject: 'Over SMTP', text: 'Hello there' });
    transport.close();
    const event = await created;
    expect(event.data).toMatchObject({ source: 'smtp', team_id: 'team_smtp' });
    expect(event.data).toEqual(await asCreated(event.data.id));
  });

  it('email.updated for a read change carries the new read flag', async () => {
    // Paused delivery still moves processing → queued: once queued, nothing else changes it.
    const queued = nextEvent('email.updated', (e) => e.data.subject === 'Read me' && e.data.status === 'queued');
    await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'r@example.com', subject: 'Read me', body: 'x' } });
    const { data } = await queued;
    const updated = nextEvent('email.updated', (e) => e.data.id === data.id);
    await server.api(`/sandbox/emails/${data.id}`, { method: 'PATCH', json: { read: true } });
    const event = await updated;
    expect(event.change).toEqual({ kind: 'read' });
    expect(event.data).toEqual(await listItem(data.id));
    expect(event.data.is_read).toBe(true);
  });

  it('email.updated for an open and a click carries opened_at and click_count as the list shows them', async () => {
    const created = nextEvent('email.created');
    await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: ['o@example.com', 'p@example.com'], subject: 'Open me', body: 'x' } });
    const { data } = await created;
    await server.api(`/sandbox/emails/${data.id}/events`, { method: 'POST', json: { type: 'delivered' } });
    for (const type of ['open', 'click'] as const) {
      const updated = nextEvent('email.updated', (e) => e.data.id === data.id && e.change?.kind === type);
      const res = await server.api(`/sandbox/emails/${data.id}/events`, { method: 'POST', json: { type, ...(type === 'click' ? { url: 'https://acme.test/x' } : {}) } });
      expect(res.status).toBe(200);
      const event = await updated;
      expect(event.data).toEqual(await listItem(data.id));
    }
    expect((await listItem(data.id)) as unknown).toMatchObject({ click_count: 2, opened_at: expect.any(String) });
  });
});
