import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';
import { linkCheckResultSchema } from '../../../shared/lab.js';

/** Real HTTP servers on loopback: 200, 301 → 200, 404, 500, a hang, a HEAD-refusing server and a refused port. */

let web: Server;
let base: string;
let refusedPort: number;
const seen: IncomingMessage[] = [];
let sendbox: TestServer;
let off: TestServer;

beforeAll(async () => {
  web = createServer((req, res) => {
    seen.push(req);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/ok' || path === '/logo.png') {
      res.writeHead(200, { 'Set-Cookie': 'tracker=1', 'Content-Type': 'text/plain' });
      return res.end('fine');
    }
    if (path === '/moved') return res.writeHead(301, { Location: '/ok' }).end();
    if (path === '/loop') return res.writeHead(302, { Location: '/loop' }).end();
    if (path === '/missing') return res.writeHead(404).end();
    if (path === '/broken') return res.writeHead(500).end();
    if (path === '/get-only') return res.writeHead(req.method === 'HEAD' ? 405 : 200).end();
    if (path === '/hang') return; // never answers
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(web.address() as { port: number }).port}`;
  const closed = createNetServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  refusedPort = (closed.address() as { port: number }).port;
  await new Promise((resolve) => closed.close(resolve));
  sendbox = await startServer(['--link-check', '--link-check-timeout-ms', '500']);
  off = await startServer();
});
afterAll(async () => {
  await sendbox.close();
  await off.close();
  web.closeAllConnections();
  await new Promise((resolve) => web.close(resolve));
});

async function send(server: TestServer, body: string): Promise<string> {
  const res = await server.api('/v1/send', { method: 'POST', key: 'links-key', json: { to: 'jane@example.com', subject: 'Links', body } });
  return res.body.data[0].email_id;
}
const check = (server: TestServer, id: string, json: unknown = {}) => server.api(`/sandbox/emails/${id}/link-check`, { method: 'POST', json });

describe('POST /sandbox/emails/{id}/link-check', () => {
  it('fetches every link and image and reports status, final URL, redirects and errors', async () => {
    const html = `<p><a href="${base}/ok">ok</a> <a href="${base}/moved">moved</a> <a href="${base}/missing">missing</a>
      <a href="${base}/broken">broken</a> <a href="${base}/hang">hang</a> <a href="http://127.0.0.1:${refusedPort}/x">refused</a>
      <a href="${base}/get-only">get only</a> <a href="${base}/loop">loop</a> <a href="mailto:help@acme.test">mail</a></p>
      <img src="${base}/logo.png" alt="logo">`;
    const id = await send(sendbox, html);
    const res = await check(sendbox, id);
    expect(res.status).toBe(200);
    const byUrl = Object.fromEntries(res.body.data.links.map((l: { url: string }) => [l.url, l]));
    expect(byUrl[`${base}/ok`]).toMatchObject({ kind: 'link', status: 200, ok: true, final_url: `${base}/ok`, redirects: 0, method: 'HEAD', error: null });
    expect(byUrl[`${base}/moved`]).toMatchObject({ status: 200, ok: true, final_url: `${base}/ok`, redirects: 1 });
    expect(byUrl[`${base}/missing`]).toMatchObject({ status: 404, ok: false, error: 'answered 404' });
    expect(byUrl[`${base}/broken`]).toMatchObject({ status: 500, ok: false, error: 'answered 500' });
    expect(byUrl[`${base}/hang`]).toMatchObject({ status: null, ok: false, error: 'no answer within 500 ms' });
    expect(byUrl[`http://127.0.0.1:${refusedPort}/x`]).toMatchObject({ status: null, ok: false, error: 'connection refused' });
    expect(byUrl[`${base}/get-only`]).toMatchObject({ status: 200, ok: true, method: 'GET' });
    expect(byUrl[`${base}/loop`]).toMatchObject({ ok: false, redirects: 5, error: 'more than 5 redirects' });
    expect(byUrl[`${base}/logo.png`]).toMatchObject({ kind: 'image', status: 200, ok: true });
    expect(res.body.data).toMatchObject({ checked: 9, ok: 4, failed: 5, skipped: [], limits: { max_links: 30, timeout_ms: 500, max_redirects: 5, concurrency: 4 } });
    // Exactly the shape the OpenAPI document publishes (the same zod schema).
    expect(linkCheckResultSchema.safeParse(res.body.data).success).toBe(true);
  });

  it('sends no cookie, credentials or referrer, even after a server set a cookie', async () => {
    const id = await send(sendbox, `<a href="${base}/ok?again=1">again</a>`);
    seen.length = 0;
    await check(sendbox, id);
    expect(seen.length).toBeGreaterThan(0);
    for (const req of seen) {
      expect(req.headers.cookie).toBeUndefined();
      expect(req.headers.authorization).toBeUndefined();
      expect(req.headers.referer).toBeUndefined();
      expect(req.headers['user-agent']).toMatch(/^sendbox-link-check\//);
    }
  });

  it('does not fetch a URL that carries a user name and password', async () => {
    const id = await send(sendbox, `<a href="http://user:secret@127.0.0.1:${(web.address() as { port: number }).port}/ok">x</a>`);
    seen.length = 0;
    const res = await check(sendbox, id);
    expect(res.body.data.links[0]).toMatchObject({ ok: false, error: 'the URL carries a user name or password, so it is not fetched' });
    expect(seen).toEqual([]);
  });

  it('checks at most max_links and lists the rest as skipped', async () => {
    const links = Array.from({ length: 6 }, (_, i) => `<a href="${base}/ok?n=${i}">${i}</a>`).join(' ');
    const res = await check(sendbox, await send(sendbox, `<p>${links}</p>`), { max_links: 2 });
    expect(res.body.data.checked).toBe(2);
    expect(res.body.data.skipped).toEqual([2, 3, 4, 5].map((n) => `${base}/ok?n=${n}`));
  });

  it('answers 422 for bad options, 415 without JSON, 404 for an unknown email, 405 for GET', async () => {
    const id = await send(sendbox, `<a href="${base}/ok">x</a>`);
    expect((await check(sendbox, id, { max_links: 0 })).status).toBe(422);
    expect((await check(sendbox, id, { max_links: 101 })).status).toBe(422);
    expect((await check(sendbox, id, { other: 1 })).status).toBe(422);
    expect((await sendbox.api(`/sandbox/emails/${id}/link-check`, { method: 'POST' })).status).toBe(415);
    expect((await check(sendbox, 'nope')).status).toBe(404);
    expect((await sendbox.api(`/sandbox/emails/${id}/link-check`)).status).toBe(405);
  });

  it('runs one check at a time: a second check waits for the first, so fetches never pile up', async () => {
    // The first check's links never answer (it ends at --link-check-timeout-ms, 500 ms here);
    // the second check's answer at once. Run together, the second may only start, and so
    // only finish, after the first.
    let firstArrived!: () => void;
    const firstRunning = new Promise<void>((resolve) => (firstArrived = resolve));
    const gate = createServer((req, res) => {
      if (new URL(req.url ?? '/', 'http://x').searchParams.get('c') === '2') res.writeHead(200).end();
      else firstArrived();
    });
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(gate.address() as { port: number }).port}`;
    try {
      const links = (n: number) => Array.from({ length: 4 }, (_, i) => `<a href="${at}/x?c=${n}&amp;l=${i}">${i}</a>`).join(' ');
      const [first, second] = [await send(sendbox, `<p>${links(1)}</p>`), await send(sendbox, `<p>${links(2)}</p>`)];
      const finished: string[] = [];
      const firstCheck = check(sendbox, first).then((res) => (finished.push('first'), res));
      await firstRunning;
      const [a, b] = await Promise.all([firstCheck, check(sendbox, second).then((res) => (finished.push('second'), res))]);
      expect(a.body.data.links.map((l: { error: string }) => l.error)).toEqual(Array(4).fill('no answer within 500 ms'));
      expect(b.body.data.ok).toBe(4);
      expect(finished).toEqual(['first', 'second']);
    } finally {
      gate.closeAllConnections();
      await new Promise((resolve) => gate.close(resolve));
    }
  });

  it('is off until sendbox is started with --link-check: 403 naming the flag, fetching nothing', async () => {
    const id = await send(off, `<a href="${base}/ok">x</a>`);
    seen.length = 0;
    const res = await check(off, id);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ status: 403, message: 'Link checking is off: start sendbox with --link-check (SENDBOX_LINK_CHECK=true) to let it fetch the links of an email' });
    expect(seen).toEqual([]);
  });
});
