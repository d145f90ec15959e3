import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/test/harness.js';
import { startReceiver } from '../server/test/smtp/receiver.js';
import { createSendboxClient, SendboxError } from './index.js';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let server: TestServer;
beforeAll(async () => {
  receiver = await startReceiver();
  server = await startServer(['--relay', `smtp://127.0.0.1:${receiver.port}`, '--relay-allow', '*@example.com', '--relay-tls', 'off']);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

it('releases an email to a real server in one call, and names a refused recipient', async () => {
  const sendbox = createSendboxClient({ baseUrl: server.url, apiKey: 'client-release-key' });
  const { id } = await sendbox.send({ to: 'jane@example.com', subject: 'Welcome', body: 'hi' });
  const result = await sendbox.release(id, 'qa@example.com');
  expect(result).toMatchObject({ id, to: ['qa@example.com'], from: 'sandbox@sendbox.local' });
  expect((await receiver.next()).to).toEqual(['qa@example.com']);
  const refused = await sendbox.release(id, ['boss@elsewhere.test']).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(SendboxError);
  expect((refused as SendboxError).status).toBe(403);
});
