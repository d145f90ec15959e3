import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, eventually, type TestServer } from '../../../test/harness.js';

/** GET /sandbox/emails/wait (CONTRACT §6, §8). */
let server: TestServer;
const KEY = 'wait-key';

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

async function send(to: string | string[], subject = 'Hello', key = KEY): Promise<{ id: string; created_at: string }> {
  const res = await server.api('/v1/send', { method: 'POST', key, json: { to, subject, body: 'Hi' } });
  expect(res.status).toBe(200);
  const id = res.body.data[0].email_id;
  return { id, created_at: (await server.api(`/sandbox/emails/${id}`)).body.data.created_at };
}

const wait = (query: string) => server.api(`/sandbox/emails/wait?${query}`);

/** Resolves once the wait request is listening on the event bus (it subscribes when it starts). */
async function listening(before: number): Promise<void> {
  await eventually(() => server.sendbox.services.events.listenerCount > before, 5000, 'the wait to subscribe');
}

describe('wait', () => {
  it('answers at once for an existing match (no since), oldest first, with the full sandbox view', async () => {
    const first = await send('exists@wait.example', 'Welcome aboard');
    await send('exists@wait.example', 'Welcome again');
    const res = await wait('to=exists@wait.example&subject=WELCOME');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ id: first.id, subject: 'Welcome aboard', to_addresses: ['exists@wait.example'] });
    expect(res.body.data[0]).toHaveProperty('links');
    expect(res.body.data[0]).toHaveProperty('codes');
  });

  it('takes since as an email id', async () => {
    const a = await send('since-id@wait.example');
    const b = await send('since-id@wait.example');
    const res = await wait(`to=since-id@wait.example&since=${a.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual([b.id]);
  });

  it('takes since as an ISO time (inclusive)', async () => {
    const a = await send('since-time@wait.example');
    // Let the clock move past the first email's millisecond (a deterministic wait, not a sleep).
    while (Date.now() <= Date.parse(a.created_at)) await new Promise((r) => setImmediate(r));
    const since = new Date().toISOString();
    const b = await send('since-time@wait.example');
    const res = await wait(`to=since-time@wait.example&since=${encodeURIComponent(since)}`);
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual([b.id]);
  });

  it('resolves from the new-email event, searching once at the start and once per event, never on a timer', async () => {
    const { emails, events } = server.sendbox.services;
    const original = emails.listAscending.bind(emails);
    let searches = 0;
    emails.listAscending = (...args) => {
      searches += 1;
      return original(...args);
    };
    try {
      const before = events.listenerCount;
      const pending = wait('to=later@wait.example&timeout_ms=60000');
      await listening(before);
      expect(searches).toBe(1);
      await send('someone-else@wait.example');
      await send('someone-else@wait.example');
      await eventually(() => searches === 3, 5000, 'one search per event');
      const later = await send('later@wait.example', 'Your code');
      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.body.data.map((e: { id: string }) => e.id)).toEqual([later.id]);
      expect(searches).toBe(4);
      expect(events.listenerCount).toBe(before);
    } finally {
      emails.listAscending = original;
    }
  });

  it('waits for count emails and answers exactly count, oldest first', async () => {
    const before = server.sendbox.services.events.listenerCount;
    const pending = wait('to=*@count.example&count=2&timeout_ms=30000');
    await listening(before);
    const a = await send('one@count.example');
    const b = await send('two@count.example');
    await send('three@count.example');
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual([a.id, b.id]);
  });

  it('matches a * glob over every recipient (cc and bcc too), case-insensitively', async () => {
    const res = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'main@example.com', bcc: 'Hidden@Glob.Example', subject: 'g', body: 'b' } });
    const found = await wait('to=hidden@*.example');
    expect(found.status).toBe(200);
    expect(found.body.data[0].id).toBe(res.body.data[0].email_id);
  });

  it('filters by team_id', async () => {
    const mine = await send('team@wait.example', 'team', 'wait-other-key');
    const team = (await server.api(`/sandbox/emails/${mine.id}`)).body.data.team_id;
    const res = await wait(`to=team@wait.example&team_id=${team}`);
    expect(res.body.data[0].id).toBe(mine.id);
    const none = await wait('to=team@wait.example&team_id=team_000000000000&timeout_ms=0');
    expect(none.status).toBe(408);
  });

  it('answers 408 saying what it searched for and what it saw', async () => {
    await send('near@miss.example', 'Password reset');
    const res = await wait('to=nobody@miss.example&subject=reset&timeout_ms=50');
    expect(res.status).toBe(408);
    expect(res.headers.get('connection')).toBe('close');
    expect(res.body.status).toBe(408);
    expect(res.body.message).toMatch(/^Waited 50 ms for 1 email to nobody@miss\.example with a subject containing "reset": 0 matched among \d+ emails seen\. Most recent: "Password reset" to near@miss\.example/);
    expect(res.body.data.searched).toEqual({ to: 'nobody@miss.example', subject: 'reset', team_id: null, since: null, count: 1, timeout_ms: 50 });
    expect(res.body.data.matched).toBe(0);
    expect(res.body.data.seen).toBeGreaterThan(0);
    expect(res.body.data.recent[0]).toMatchObject({ to: ['near@miss.example'], subject: 'Password reset' });
  });

  it('none=true: 200 when nothing matching arrives, ignoring emails that already exist', async () => {
    await send('quiet@none.example');
    const res = await wait('to=quiet@none.example&none=true&timeout_ms=50');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('none=true: 409 with the email that arrived', async () => {
    const before = server.sendbox.services.events.listenerCount;
    const pending = wait('to=loud@none.example&none=true&timeout_ms=30000');
    await listening(before);
    const arrived = await send('loud@none.example', 'Unexpected');
    const res = await pending;
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('"Unexpected"');
    expect(res.body.data).toMatchObject({ id: arrived.id, subject: 'Unexpected' });
  });

  it('ends with 503 when the server shuts down', async () => {
    const other = await startServer();
    const before = other.sendbox.services.events.listenerCount;
    const pending = other.api('/sandbox/emails/wait?to=never@example.com&timeout_ms=60000');
    await eventually(() => other.sendbox.services.events.listenerCount > before, 5000, 'subscribed');
    const closing = other.close();
    const res = await pending;
    await closing;
    expect(res.status).toBe(503);
  });

  it.each([
    ['to=has space@x.example', 'to'],
    ['to=[ab]@x.example', 'to'],
    ['since=yesterday', 'since'],
    ['since=ffffffffffffffff', 'since'],
    ['count=0', 'count'],
    ['count=abc', 'count'],
    ['timeout_ms=999999999', 'timeout_ms'],
    ['none=maybe', 'none'],
    ['none=true&count=2', 'count'],
    ['team_id=bad%20team', 'team_id'],
    ['to=a@x.example&to=b@x.example', 'to'],
  ])('answers 400 for %s', async (query, field) => {
    const res = await wait(query);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
    expect(res.body.message.length).toBeGreaterThan(10);
  });
});
