import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('POST /v1/send', () => {
  it('accepts a minimal send and answers the SMTP-style acknowledgement', async () => {
    const res = await server.api('/v1/send', { method: 'POST', key: 'send-key-1', json: { to: 'a@example.com', subject: 'Hi', body: 'Hello' } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'success', 'timestamp']);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toHaveLength(1);
    const { email_id, message } = res.body.data[0];
    expect(email_id).toMatch(/^[0-9a-f]{16}$/);
    expect(message).toBe(`250 2.0.0 Ok: queued as ${email_id}`);
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
  });
});
