import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../server/test/harness.js';
import { createSendboxClient, SendboxError, type SendboxClient } from './index.js';

/** The lab methods of the typed client against a real sendbox (and a real local web server for the links). */

let server: TestServer;
let web: Server;
let base: string;
let sendbox: SendboxClient;

beforeAll(async () => {
  server = await startServer(['--link-check']);
  web = createServer((req, res) => res.writeHead(req.url === '/gone' ? 404 : 200).end());
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(web.address() as { port: number }).port}`;
  sendbox = createSendboxClient({ baseUrl: server.url, apiKey: 'client-lab-key' });
});
afterAll(async () => {
  await server.close();
  web.closeAllConnections();
  await new Promise((resolve) => web.close(resolve));
});

describe('client lab methods', () => {
  it('checks an email end to end: HTML compatibility, spam, links, authentication', async () => {
    const { id } = await sendbox.send({ to: 'jane@example.com', subject: 'Hi', body: `<div style="display:flex"><a href="${base}/ok">ok</a> <a href="${base}/gone">gone</a></div>` });

    const html = await sendbox.htmlCheck(id);
    expect(html.features.map((f) => f.slug)).toContain('css-display-flex');

    const spam = await sendbox.spam(id);
    expect(spam).toEqual({ configured: false, message: expect.stringContaining('--spamassassin') });

    const links = await sendbox.linkCheck(id);
    expect(links.links.map((l) => [l.url, l.status])).toEqual([[`${base}/ok`, 200], [`${base}/gone`, 404]]);
    expect((await sendbox.linkCheck(id, { maxLinks: 1 })).skipped).toEqual([`${base}/gone`]);

    const auth = await sendbox.auth(id);
    expect(auth).toMatchObject({ from_domain: 'sendbox.local', signed_by_sendbox: false, dkim: [] });
  });

  it('rejects with the server\'s status for an unknown email', async () => {
    await expect(sendbox.auth('nope')).rejects.toBeInstanceOf(SendboxError);
    await expect(sendbox.linkCheck('nope')).rejects.toMatchObject({ status: 404 });
  });
});
