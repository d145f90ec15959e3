import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startServer, type TestServer } from '../../test/harness.js';
import { startReceiver, type ReceivedRequest, type WebhookReceiver } from '../../test/webhook-receiver.js';
import { verifySignature } from './signature.js';

/** CONTRACT §6 webhooks, end to end: a real sendbox POSTing to receivers this test runs. */

let server: TestServer;
const KEY = 'webhooks-test-key';
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  server = await startServer(['--webhook-retry-ms', '20', '--webhook-timeout-ms', '300']);
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

const json = (method: string, body?: unknown) => ({ method, headers: { 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** A receiver and a webhook pointing at it, both removed after the test. */
async function hook(input: { secret?: string; events?: string[] } = {}): Promise<{ receiver: WebhookReceiver; id: string; secret: string; created: any }> {
  // Emails of earlier tests still on their way would send their events to this hook too.
  await eventually(async () => (await server.api('/sandbox/emails?status=processing,queued&limit=1')).body.data.pagination.total_records === 0, 10_000, 'earlier emails delivered');
  const receiver = await startReceiver();
  const res = await server.api('/sandbox/webhooks', { method: 'POST', json: { url: receiver.url, ...input } });
  expect(res.status).toBe(201);
  const id = res.body.data.id;
  cleanup.push(() => server.api(`/sandbox/webhooks/${id}`, json('DELETE')), () => receiver.close());
  return { receiver, id, secret: res.body.data.secret, created: res.body.data };
}

const send = async (body: Record<string, unknown>) => {
  const res = await server.api('/v1/send', { method: 'POST', key: KEY, json: { subject: 'Hello', body: 'Hi there', ...body } });
  expect(res.status).toBe(200);
  return res.body.data[0].email_id as string;
};

/** The test's own HMAC, independent of the server's code. */
function expectSigned(request: ReceivedRequest, secret: string): void {
  const header = String(request.headers['x-sendbox-signature']);
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  expect(match, header).not.toBeNull();
  const [, t, v1] = match!;
  expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(60);
  expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${request.body}`).digest('hex'));
  expect(verifySignature(header, request.body, secret)).toBe(true);
  expect(verifySignature(header, request.body, secret + 'x')).toBe(false);
  expect(verifySignature(header, request.body + ' ', secret)).toBe(false);
}

describe('webhook events', () => {
  it('POSTs each state of an email, signed, in order', async () => {
    const { receiver, secret, created } = await hook({ secret: 'whsec_test_secret' });
    expect(created).toEqual({
      id: expect.stringMatching(/^wh_[0-9a-f]{16}$/),
      url: receiver.url,
      events: null,
      secret: 'whsec_test_secret',
      secret_source: 'webhook',
      source: 'api',
      created_at: expect.any(String),
      deliveries: { pending: 0, delivered: 0, failed: 0 },
      attempts: [],
    });

    const emailId = await send({ to: 'Ann <ann@example.com>' });
    const requests = await receiver.received(3);
    expect(requests.map((r) => r.json.type)).toEqual(['email.processing', 'email.queued', 'email.delivered']);
    for (const request of requests) {
      expectSigned(request, secret);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-sendbox-event']).toBe(request.json.type);
      expect(request.headers['x-sendbox-event-id']).toMatch(/^evt_[0-9a-f]{16}$/);
      expect(request.headers['x-sendbox-attempt']).toBe('1');
      expect(Object.keys(request.json).sort()).toEqual(['created_at', 'data', 'type']);
      expect(request.json.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(request.json.data).toMatchObject({ id: emailId, to_addresses: ['ann@example.com'], subject: 'Hello', recipient: 'ann@example.com' });
      // The mailbox and tags come along (EmailEventData); the inbox's own fields do not.
      expect(request.json.data).toMatchObject({ team_id: expect.stringMatching(/^team_/), tags: [] });
      expect(Object.keys(request.json.data)).not.toContain('is_read');
    }
    expect(requests[0].json.data.log).toBeUndefined();
    expect(requests[1].json.data.log).toMatchObject({ status: 'queued', code: '250', recipient: 'ann@example.com' });
    expect(requests[2].json.data).toMatchObject({ status: 'delivered', log: { status: 'delivered', code: '250', mx_hostname: 'mx.example.com' } });
  });

  it('sends one event per recipient, each recipient in order, with the outcome\'s code', async () => {
    const { receiver } = await hook();
    const emailId = await send({ to: ['one@example.com', 'two+bounced@example.com'], cc: 'three@example.com' });
    const requests = await receiver.received(9);
    const mine = requests.filter((r) => r.json.data.id === emailId);
    const byRecipient = (address: string) => mine.filter((r) => r.json.data.recipient === address).map((r) => r.json.type);
    expect(byRecipient('one@example.com')).toEqual(['email.processing', 'email.queued', 'email.delivered']);
    expect(byRecipient('three@example.com')).toEqual(['email.processing', 'email.queued', 'email.delivered']);
    expect(byRecipient('two+bounced@example.com')).toEqual(['email.processing', 'email.queued', 'email.bounced']);
    const bounced = mine.find((r) => r.json.type === 'email.bounced')!;
    expect(bounced.json.data.log.code).toMatch(/^5\d\d$/);
  });

  it('only sends the event types a webhook asked for', async () => {
    const { receiver } = await hook({ events: ['email.delivered'] });
    const emailId = await send({ to: 'filtered@example.com' });
    const [first] = await receiver.received(1);
    expect(first.json).toMatchObject({ type: 'email.delivered', data: { id: emailId } });
    // The next thing it gets is the next delivery, not a processing or queued event.
    const second = await send({ to: 'filtered-2@example.com' });
    const requests = await receiver.received(2);
    expect(requests[1].json).toMatchObject({ type: 'email.delivered', data: { id: second } });
  });

  it('turns opens and clicks on the bus into email.opened and email.clicked', async () => {
    const { receiver } = await hook({ events: ['email.opened', 'email.clicked'] });
    const emailId = await send({ to: 'reader@example.com' });
    const email = (await server.api(`/v1/emails/${emailId}`, { key: KEY })).body.data;
    const { events } = server.sendbox.services;
    events.publish({ type: 'email.updated', data: email, change: { kind: 'open', recipient: 'reader@example.com' } });
    events.publish({ type: 'email.updated', data: email, change: { kind: 'read' } });
    events.publish({ type: 'email.updated', data: email, change: { kind: 'click', recipient: 'reader@example.com', url: 'https://app.example/reset?t=1' } });
    const requests = await receiver.received(2);
    expect(requests.map((r) => [r.json.type, r.json.data.recipient, r.json.data.url])).toEqual([
      ['email.opened', 'reader@example.com', undefined],
      ['email.clicked', 'reader@example.com', 'https://app.example/reset?t=1'],
    ]);
  });

  it('sends what the sandbox driving API does: opens, clicks and a forced complaint', async () => {
    const { receiver } = await hook({ events: ['email.delivered', 'email.opened', 'email.clicked', 'email.complaint'] });
    const emailId = await send({ to: 'driven@example.com' });
    await receiver.received(1);
    const drive = (body: unknown) => server.api(`/sandbox/emails/${emailId}/events`, { method: 'POST', json: body });
    expect((await drive({ type: 'open' })).status).toBe(200);
    expect((await drive({ type: 'click', url: 'https://app.example/welcome' })).status).toBe(200);
    expect((await drive({ type: 'complaint' })).status).toBe(200);
    const requests = await receiver.received(4);
    expect(requests.map((r) => [r.json.type, r.json.data.recipient, r.json.data.url ?? null])).toEqual([
      ['email.delivered', 'driven@example.com', null],
      ['email.opened', 'driven@example.com', null],
      ['email.clicked', 'driven@example.com', 'https://app.example/welcome'],
      ['email.complaint', 'driven@example.com', null],
    ]);
    expect(requests[3].json.data).toMatchObject({ id: emailId, status: 'complaint', log: { status: 'complaint', code: '' } });
  });

  it('sends domain.created, domain.<status> when the status changes, and domain.deleted', async () => {
    const { receiver } = await hook({ events: ['domain.*'] });
    await server.api('/v1/domains', { method: 'POST', key: KEY, json: { value: 'hooked.example' } });
    const verify = () => server.api('/v1/domains/verify?domain=hooked.example', { method: 'POST', key: KEY });
    await server.api('/sandbox/domains/hooked.example/verification', { method: 'PUT', json: { sequence: ['failed', 'failed'] } });
    await verify();
    await verify(); // still failed: no event
    await verify(); // success
    await server.api('/v1/domains?domain=hooked.example', { method: 'DELETE', key: KEY });
    const requests = await receiver.received(4);
    expect(requests.map((r) => r.json.type)).toEqual(['domain.created', 'domain.failed', 'domain.success', 'domain.deleted']);
    expect(requests[1].json.data).toMatchObject({ value: 'hooked.example', status: 'failed', attributes: { error_type: 'HOST_NOT_FOUND' } });
    expect(requests[3].json.data).toEqual({ id: requests[0].json.data.id, value: 'hooked.example', team_id: requests[0].json.data.team_id });
  });
});

describe('retries and attempts', () => {
  it('a receiver failing twice gets the event on the third attempt; every attempt is listed', async () => {
    const { receiver, id, secret } = await hook({ events: ['domain.created'] });
    receiver.respond = [500, 503];
    await server.api('/v1/domains', { method: 'POST', key: KEY, json: { value: 'retry-me.example' } });
    const requests = await receiver.received(3);
    expect(requests.map((r) => r.answered)).toEqual([500, 503, 200]);
    expect(requests.map((r) => r.headers['x-sendbox-attempt'])).toEqual(['1', '2', '3']);
    // The same event each time, signed again for each attempt.
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    expect(new Set(requests.map((r) => r.headers['x-sendbox-event-id'])).size).toBe(1);
    for (const request of requests) expectSigned(request, secret);

    const attempts = await eventually(async () => {
      const res = await server.api(`/sandbox/webhooks/${id}/attempts`);
      return res.body.data.length === 3 ? res.body.data : undefined;
    }, 5000, 'three recorded attempts');
    // Newest first.
    expect(attempts.map((a: any) => [a.attempt, a.success, a.status_code, a.error])).toEqual([
      [3, true, 200, null],
      [2, false, 503, 'receiver answered 503'],
      [1, false, 500, 'receiver answered 500'],
    ]);
    for (const a of attempts) {
      expect(a).toEqual({
        id: expect.any(Number),
        event_id: requests[0].headers['x-sendbox-event-id'],
        event_type: 'domain.created',
        attempt: a.attempt,
        created_at: expect.stringMatching(/Z$/),
        success: a.success,
        status_code: a.status_code,
        error: a.error,
        response: a.success ? 'ok' : `error ${a.status_code}`,
        duration_ms: expect.any(Number),
        delivery_state: 'delivered',
        next_attempt_at: null,
      });
    }
    const detail = (await server.api(`/sandbox/webhooks/${id}`)).body.data;
    expect(detail.deliveries).toEqual({ pending: 0, delivered: 1, failed: 0 });
    expect(detail.attempts).toEqual(attempts);
  });

  it('keeps events in order: the next one waits until the failing one is through', async () => {
    const { receiver } = await hook({ events: ['domain.created'] });
    receiver.respond = [500, 500];
    for (const name of ['order-1.example', 'order-2.example', 'order-3.example']) {
      await server.api('/v1/domains', { method: 'POST', key: KEY, json: { value: name } });
    }
    const requests = await receiver.received(5);
    expect(requests.map((r) => r.json.data.value)).toEqual(['order-1.example', 'order-1.example', 'order-1.example', 'order-2.example', 'order-3.example']);
  });

  it('gives up after 5 retries (6 attempts), then goes on with the next event', async () => {
    const { receiver, id } = await hook({ events: ['domain.created'] });
    receiver.respond = [500, 500, 500, 500, 500, 500];
    await server.api('/v1/domains', { method: 'POST', key: KEY, json: { value: 'give-up.example' } });
    await server.api('/v1/domains', { method: 'POST', key: KEY, json: { value: 'after-give-up.example' } });
    const requests = await receiver.received(7);
    expect(requests.map((r) => r.json.data.value)).toEqual([...Array(6).fill('give-up.example'), 'after-give-up.example']);
    expect(requests.at(-1)!.answered).toBe(200);
    const detail = await eventually(async () => {
      const d = (await server.api(`/sandbox/webhooks/${id}`)).body.data;
      return d.deliveries.delivered === 1 ? d : undefined;
    }, 5000, 'the second delivery recorded');
    expect(detail.deliveries).toEqual({ pending: 0, delivered: 1, failed: 1 });
    const failed = detail.attempts.filter((a: any) => a.event_type === 'domain.created' && !a.success);
    expect(failed.map((a: any) => a.attempt)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(failed.every((a: any) => a.delivery_state === 'failed')).toBe(true);
  });

  it('records a receiver that does not answer in time, and one that refuses connections', async () => {
    const { receiver, id } = await hook({ events: ['domain.created'] });
    receiver.respond = ['hang'];
    await server.api('/v1/domains', { method: 'POST', key: KEY, json: { value: 'slow-receiver.example' } });
    await receiver.received(2);
    const attempts = await eventually(async () => {
      const a = (await server.api(`/sandbox/webhooks/${id}/attempts`)).body.data;
      return a.length === 2 ? a : undefined;
    }, 5000, 'two attempts');
    expect(attempts[1]).toMatchObject({ attempt: 1, success: false, status_code: null, error: 'no answer within 300 ms', response: null });
    expect(attempts[0]).toMatchObject({ attempt: 2, success: true, status_code: 200 });

    // A port with nothing listening.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const res = await server.api('/sandbox/webhooks', { method: 'POST', json: { url: `http://127.0.0.1:${closed}/hook`, events: ['domain.created'] } });
    const deadId = res.body.data.id;
    cleanup.push(() => server.api(`/sandbox/webhooks/${deadId}`, json('DELETE')));
    await server.api('/v1/domains', { method: 'POST', key: KEY, json: { value: 'refused.example' } });
    const refused = await eventually(async () => {
      const a = (await server.api(`/sandbox/webhooks/${deadId}/attempts`)).body.data;
      return a.length >= 1 ? a[0] : undefined;
    }, 5000, 'a refused attempt');
    expect(refused).toMatchObject({ attempt: 1, success: false, status_code: null, delivery_state: 'pending', next_attempt_at: expect.any(String) });
    expect(refused.error).toMatch(/ECONNREFUSED/);
  });

  it('never holds up a send: emails are accepted while a receiver hangs', async () => {
    const { receiver } = await hook({ events: ['email.processing'] });
    receiver.fallback = 'hang';
    await send({ to: 'first@example.com' });
    await receiver.received(1);
    for (let i = 0; i < 5; i++) await send({ to: `more-${i}@example.com` });
    // The sends were all accepted; the queue still waits behind the first event (or its retries).
    expect(receiver.requests.every((r) => r.json.data.recipient === 'first@example.com')).toBe(true);
  });
});

describe('/sandbox/webhooks', () => {
  it('lists, reads and deletes webhooks', async () => {
    const { id, receiver } = await hook({ events: ['email.*', 'domain.success'] });
    const list = await server.api('/sandbox/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.data.find((w: any) => w.id === id)).toMatchObject({ id, url: receiver.url, events: ['email.*', 'domain.success'], source: 'api' });
    const one = await server.api(`/sandbox/webhooks/${id}`);
    expect(one.body).toEqual({ status: 200, message: expect.any(String), data: expect.objectContaining({ id, attempts: [] }) });
    const del = await server.api(`/sandbox/webhooks/${id}`, json('DELETE'));
    expect(del.body).toEqual({ status: 200, message: expect.any(String), data: null });
    expect((await server.api(`/sandbox/webhooks/${id}`)).status).toBe(404);
    expect((await server.api('/sandbox/webhooks')).body.data.some((w: any) => w.id === id)).toBe(false);
  });

  it('signs with a generated secret, shown on the webhook, when none is given and there is no --webhook-secret', async () => {
    const { receiver, created } = await hook({ events: ['domain.created'] });
    expect(created.secret_source).toBe('generated');
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    await server.api('/v1/domains', { method: 'POST', key: KEY, json: { value: 'generated-secret.example' } });
    const [request] = await receiver.received(1);
    expectSigned(request, created.secret);
  });

  it.each([
    [{}, 'url', /url is required/],
    [{ url: 'ftp://example.com/hook' }, 'url', /http:\/\/ or https:\/\//],
    [{ url: 'not a url' }, 'url', /absolute http/],
    [{ url: '/relative/hook' }, 'url', /absolute http/],
    [{ url: 42 }, 'url', /must be a string/],
    [{ url: 'http://x.example/', secret: '' }, 'secret', /must not be empty/],
    [{ url: 'http://x.example/', events: [] }, 'events', /must not be empty/],
    [{ url: 'http://x.example/', events: 'email.bounced' }, 'events', /must be an array/],
    [{ url: 'http://x.example/', events: ['email.bounced', 'email.exploded'] }, 'events.1', /unknown event type "email.exploded"/],
    [{ url: 'http://x.example/', events: ['email.created'] }, 'events.0', /unknown event type/],
    [{ url: 'http://x.example/', colour: 'red' }, 'colour', /unknown field colour/],
  ])('answers 422 for %j', async (body, field, message) => {
    const res = await server.api('/sandbox/webhooks', { method: 'POST', json: body });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(message);
    expect(res.body.errors).toContainEqual({ field, message: expect.stringMatching(message) });
  });

  it('answers 415, 400, 404 and 405 for the wrong request', async () => {
    expect((await server.api('/sandbox/webhooks', { method: 'POST', body: 'url=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
    expect((await server.api('/sandbox/webhooks', { method: 'POST', json: ['http://x.example/'] })).status).toBe(400);
    for (const [path, init] of [['/sandbox/webhooks/wh_nope', {}], ['/sandbox/webhooks/wh_nope', json('DELETE')], ['/sandbox/webhooks/wh_nope/attempts', {}]] as const) {
      const res = await server.api(path, init);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ status: 404, message: 'Webhook wh_nope not found' });
    }
    const { id } = await hook();
    for (const limit of ['0', '1001', 'x', '1.5']) expect((await server.api(`/sandbox/webhooks/${id}/attempts?limit=${limit}`)).status).toBe(400);
    expect((await server.api(`/sandbox/webhooks/${id}`, json('PUT', { url: 'http://x.example/' }))).status).toBe(405);
  });
});

describe('--webhook-url', () => {
  it('is a webhook with id "flag", signed with --webhook-secret, that the API cannot delete', async () => {
    const receiver = await startReceiver();
    const flagged = await startServer(['--webhook-url', receiver.url, '--webhook-secret', 'flag-secret-1234']);
    try {
      const list = (await flagged.api('/sandbox/webhooks')).body.data;
      expect(list).toEqual([{ id: 'flag', url: receiver.url, events: null, secret: '…1234', secret_source: 'flag', source: 'flag', created_at: expect.any(String), deliveries: { pending: 0, delivered: 0, failed: 0 } }]);
      const del = await flagged.api('/sandbox/webhooks/flag', json('DELETE'));
      expect(del.status).toBe(409);
      expect(del.body.message).toMatch(/--webhook-url/);

      await flagged.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'flag@example.com', subject: 'Flag', body: 'Hi' } });
      const requests = await receiver.received(3);
      expect(requests.map((r) => r.json.type)).toEqual(['email.processing', 'email.queued', 'email.delivered']);
      for (const request of requests) expectSigned(request, 'flag-secret-1234');
    } finally {
      await flagged.close();
      await receiver.close();
    }
  });

  it('resumes undelivered events after a restart, and drops the flag webhook when the flag is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sendbox-webhooks-'));
    const receiver = await startReceiver();
    try {
      // First run: the receiver fails once; the retry is due after the shutdown.
      receiver.respond = [500];
      let run = await startServer(['--webhook-url', receiver.url, '--webhook-retry-ms', '300'], {}, dir);
      await run.api('/v1/domains', { method: 'POST', key: KEY, json: { value: 'restart.example' } });
      await receiver.received(1);
      await eventually(async () => (await run.api('/sandbox/webhooks/flag')).body.data.attempts.length === 1, 5000, 'the failed attempt recorded');
      await run.close();

      // Second run: the queued event goes out as attempt 2.
      run = await startServer(['--webhook-url', receiver.url], {}, dir);
      try {
        const requests = await receiver.received(2);
        expect(requests[1].json).toMatchObject({ type: 'domain.created', data: { value: 'restart.example' } });
        expect(requests[1].headers['x-sendbox-attempt']).toBe('2');
        expect(requests[1].body).toBe(requests[0].body);
      } finally {
        await run.close();
      }

      run = await startServer([], {}, dir);
      try {
        expect((await run.api('/sandbox/webhooks')).body.data).toEqual([]);
      } finally {
        await run.close();
      }
    } finally {
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
