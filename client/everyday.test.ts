import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/test/harness.js';
import { createSendboxClient, teamIdForKey, SendboxError, type SendboxClient } from './index.js';

/** The client's tags, search and bulk calls against a real sendbox. */
let server: TestServer;
let sendbox: SendboxClient;

beforeAll(async () => {
  server = await startServer();
  sendbox = createSendboxClient({ baseUrl: server.url, apiKey: 'client-everyday-key', teamId: await teamIdForKey('client-everyday-key') });
});
afterAll(async () => {
  await server.close();
});

describe('tags, search and bulk actions', () => {
  it('tags, searches, bulk-marks and deletes through the typed calls', async () => {
    const welcome = await sendbox.send({ to: 'new@example.com', subject: 'Welcome', body: 'hi', headers: { 'X-Tags': 'signup' } });
    const digest = await sendbox.send({ to: 'old@example.com', subject: 'Digest', body: 'news' });
    expect((await sendbox.tags.set(digest.id, ['newsletter'])).tags).toEqual(['newsletter']);
    expect(await sendbox.tags.list()).toEqual([{ tag: 'newsletter', count: 1 }, { tag: 'signup', count: 1 }]);

    expect((await sendbox.search('tag:signup')).data.map((e) => e.id)).toEqual([welcome.id]);
    expect((await sendbox.emails.list({ q: '-tag:signup' })).data.map((e) => e.id)).toEqual([digest.id]);

    expect(await sendbox.bulk({ q: 'is:unread', action: 'read' })).toEqual({ action: 'read', count: 2 });
    expect((await sendbox.search('is:unread')).pagination.total_records).toBe(0);
    expect(await sendbox.tags.rename('newsletter', 'digest')).toMatchObject({ count: 1 });
    expect((await sendbox.emails.get(digest.id)).tags).toEqual(['digest']);

    expect(await sendbox.bulk({ ids: [welcome.id, digest.id], action: 'delete' })).toEqual({ action: 'delete', count: 2 });
    expect((await sendbox.search('')).data).toEqual([]);
  });

  it('rejects with the server\'s explanation for a search it cannot parse', async () => {
    const error = await sendbox.search('status:lost').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendboxError);
    expect((error as SendboxError).status).toBe(400);
    expect((error as SendboxError).message).toContain('status:lost');
  });
});
