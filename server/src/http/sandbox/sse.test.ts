import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.js';

/** GET /sandbox/events (CONTRACT §8): Server-Sent Events. */
let server: TestServer;
const teamOf = (key: string) => `team_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

interface SseEvent {
  event: string;
  data: { type: string; data: Record<string, unknown> };
}

/** An SSE client over fetch: `next(predicate)` resolves with the first matching event. */
async function connect(url: string) {
  const res = await fetch(url);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const seen: SseEvent[] = [];
  const comments: string[] = [];
  const pull = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (done) return false;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split('\n');
      for (const line of lines) if (line.startsWith(':')) comments.push(line);
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
      if (event && data) seen.push({ event, data: JSON.parse(data) });
    }
    return true;
  };
  return {
    res,
    comments,
    seen,
    async next(predicate: (e: SseEvent) => boolean): Promise<SseEvent> {
      for (;;) {
        const found = seen.find(predicate);
        if (found) {
          seen.splice(seen.indexOf(found), 1);
          return found;
        }
        if (!(await pull())) throw new Error('stream ended');
      }
    },
    async ended(): Promise<boolean> {
      while (await pull());
      return true;
    },
    close: () => reader.cancel(),
  };
}

describe('SSE', () => {
  it('streams email.created and email.updated as `event: <type>` + `data: {"type","data"}`', async () => {
    const stream = await connect(`${server.url}/sandbox/events`);
    expect(stream.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const sent = await server.api('/v1/send', { method: 'POST', key: 'sse-key', json: { to: 'a@example.com', subject: 'Live', body: 'b' } });
    const id = sent.body.data[0].email_id;
    const created = await stream.next((e) => e.event === 'email.created');
    expect(Object.keys(created.data)).toEqual(['type', 'data']);
    expect(created.data.type).toBe('email.created');
    expect(created.data.data).toMatchObject({ id, subject: 'Live', team_id: teamOf('sse-key') });
    const delivered = await stream.next((e) => e.event === 'email.updated' && e.data.data.status === 'delivered');
    expect(delivered.data.data.id).toBe(id);

    await server.api(`/sandbox/emails/${id}`, { method: 'PATCH', json: { read: true } });
    expect((await stream.next((e) => e.event === 'email.updated')).data.data.id).toBe(id);
    await server.api(`/sandbox/emails/${id}`, { method: 'DELETE', json: {} });
    expect((await stream.next((e) => e.event === 'email.deleted')).data.data).toEqual({ id, team_id: teamOf('sse-key') });
    await server.api('/sandbox/emails', { method: 'DELETE', json: {} });
    expect((await stream.next((e) => e.event === 'emails.cleared')).data.data).toEqual({ team_id: null });
    await server.api('/v1/domains', { method: 'POST', key: 'sse-key', json: { value: 'live.example' } });
    expect((await stream.next((e) => e.event === 'domain.created')).data.data).toMatchObject({ value: 'live.example' });
    expect(stream.comments[0]).toBe(': connected');
    await stream.close();
  });

  it('keeps only one team\'s events with ?team_id=', async () => {
    const stream = await connect(`${server.url}/sandbox/events?team_id=${teamOf('sse-mine')}`);
    await server.api('/v1/send', { method: 'POST', key: 'sse-theirs', json: { to: 'x@example.com', subject: 'Theirs', body: 'b' } });
    await server.api('/v1/send', { method: 'POST', key: 'sse-mine', json: { to: 'x@example.com', subject: 'Mine', body: 'b' } });
    const created = await stream.next((e) => e.event === 'email.created');
    expect(created.data.data.subject).toBe('Mine');
    expect(stream.seen.every((e) => e.data.data.team_id === teamOf('sse-mine'))).toBe(true);
    await stream.close();
  });

  it('answers 400 for a bad team filter', async () => {
    expect((await server.api('/sandbox/events?team_id=a%20b')).status).toBe(400);
  });

  it('ends the stream when the server shuts down', async () => {
    const other = await startServer();
    const stream = await connect(`${other.url}/sandbox/events`);
    await other.close();
    expect(await stream.ended()).toBe(true);
  });
});
