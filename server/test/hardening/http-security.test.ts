import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startServer, type TestServer } from '../harness.js';
import { httpClient, type RawResponse } from './lib/http.js';
import { RawSmtp, queuedId } from '../smtp/client.js';

/**
 * HTTP-level browser security (the Playwright specs of the inbox cover script isolation
 * in the preview itself): security headers and CSP on the inbox and on /sandbox,
 * attachment downloads that never render and carry safe names, the Host and
 * Content-Type rules of CONTRACT §8 on every /sandbox route, and --ui-auth on the
 * inbox, /sandbox and its event stream.
 */
let server: TestServer;
let client: ReturnType<typeof httpClient>;
let emailId: string;
const KEY = 'http-security-key-0001';

/** Every /sandbox route, with a request that reaches its handler. */
function sandboxRoutes(id: string): { method: string; path: string }[] {
  return [
    { method: 'GET', path: '/sandbox/health' },
    { method: 'GET', path: '/sandbox/teams' },
    { method: 'GET', path: '/sandbox/emails' },
    { method: 'DELETE', path: '/sandbox/emails?team_id=team_nobody' },
    { method: 'GET', path: '/sandbox/emails/wait?timeout_ms=0' },
    { method: 'GET', path: `/sandbox/emails/${id}` },
    { method: 'PATCH', path: `/sandbox/emails/${id}` },
    { method: 'DELETE', path: '/sandbox/emails/0000000000000000' },
    { method: 'GET', path: `/sandbox/emails/${id}/raw` },
    { method: 'GET', path: `/sandbox/emails/${id}/attachments/0` },
    { method: 'POST', path: `/sandbox/emails/${id}/events` },
    { method: 'GET', path: '/sandbox/events' },
    { method: 'GET', path: '/sandbox/rules' },
    { method: 'POST', path: '/sandbox/rules' },
    { method: 'DELETE', path: '/sandbox/rules' },
    { method: 'GET', path: '/sandbox/rules/1' },
    { method: 'DELETE', path: '/sandbox/rules/1' },
    { method: 'GET', path: '/sandbox/delivery' },
    { method: 'POST', path: '/sandbox/delivery/pause' },
    { method: 'POST', path: '/sandbox/delivery/resume' },
    { method: 'GET', path: '/sandbox/chaos' },
    { method: 'PUT', path: '/sandbox/chaos' },
    { method: 'POST', path: '/sandbox/reset' },
    { method: 'GET', path: '/sandbox/domains' },
    { method: 'POST', path: '/sandbox/domains' },
    { method: 'DELETE', path: '/sandbox/domains?domain=x.test' },
    { method: 'POST', path: '/sandbox/domains/verify?domain=x.test' },
    { method: 'GET', path: '/sandbox/domains/x.test/verification' },
    { method: 'PUT', path: '/sandbox/domains/x.test/verification' },
    { method: 'DELETE', path: '/sandbox/domains/x.test/verification' },
    { method: 'GET', path: '/sandbox/webhooks' },
    { method: 'POST', path: '/sandbox/webhooks' },
    { method: 'GET', path: '/sandbox/webhooks/x' },
    { method: 'DELETE', path: '/sandbox/webhooks/x' },
    { method: 'GET', path: '/sandbox/webhooks/x/attempts' },
  ];
}
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

beforeAll(async () => {
  server = await startServer();
  client = httpClient(server.url);
  const sent = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'sec@x.test', subject: 'files', body: '<p>hi</p>', attachments: [{ filename: 'a.txt', content: 'aGk=', contentType: 'text/plain' }] } });
  emailId = sent.body.data[0].email_id;
});
afterAll(async () => {
  client?.close();
  await server?.close();
});

const header = (res: RawResponse, name: string) => String(res.headers[name.toLowerCase()] ?? '');
const directives = (csp: string) => new Map(csp.split(';').map((d) => d.trim()).filter(Boolean).map((d) => [d.split(/\s+/)[0], d.split(/\s+/).slice(1)] as [string, string[]]));

async function get(path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const out = await client.send({ method: 'GET', path, headers });
  if (!out.ok) throw new Error(`${path}: ${out.error}`);
  return out.res;
}

describe('security headers', () => {
  it('serves the inbox with a CSP that runs only its own scripts and cannot be framed', async () => {
    for (const path of ['/', '/emails/some-id', '/domains']) {
      // As a browser asks: only a request for HTML gets the inbox's deeper pages.
      const res = await get(path, { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
      expect(res.status, path).toBe(200);
      expect(header(res, 'content-type')).toMatch(/^text\/html/);
      const csp = directives(header(res, 'content-security-policy'));
      const scripts = csp.get('script-src') ?? csp.get('default-src') ?? [];
      expect(scripts, 'script-src').not.toContain("'unsafe-inline'");
      expect(scripts, 'script-src').not.toContain("'unsafe-eval'");
      expect(scripts.some((s) => s === '*' || s === 'http:' || s === 'https:'), 'scripts from anywhere').toBe(false);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toBeDefined();
      // Every inline script of the page is allowed by its hash, so the page still works.
      for (const [, body] of res.text.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
        expect(scripts).toContain(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
      }
      expect(header(res, 'x-content-type-options')).toBe('nosniff');
      expect(header(res, 'x-frame-options')).toBe('DENY');
      expect(header(res, 'referrer-policy')).toBe('no-referrer');
    }
  });

  it('lets the inbox show what a preview needs: inline styles and remote or cid images', async () => {
    const csp = directives(header(await get('/'), 'content-security-policy'));
    // The preview is an srcdoc frame: it inherits this policy on top of its own.
    expect(csp.get('style-src')).toContain("'unsafe-inline'");
    expect(csp.get('img-src')).toEqual(expect.arrayContaining(['data:', 'https:', 'http:', 'cid:']));
  });

  it('answers every /sandbox route with nosniff, a deny-all CSP and no CORS grant', async () => {
    for (const route of sandboxRoutes(emailId).filter((r) => r.method === 'GET' && !r.path.includes('/attachments/') && !r.path.endsWith('/events'))) {
      const res = await get(route.path, { Origin: 'https://evil.example' });
      expect(header(res, 'x-content-type-options'), route.path).toBe('nosniff');
      expect(header(res, 'content-security-policy'), route.path).toMatch(/default-src 'none'/);
      expect(header(res, 'access-control-allow-origin'), route.path).toBe('');
    }
    const preflight = await client.send({ method: 'OPTIONS', path: '/sandbox/reset', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' } });
    expect(preflight.ok && header(preflight.res, 'access-control-allow-origin')).toBe('');
    expect(preflight.ok && preflight.res.status).toBeGreaterThanOrEqual(400);
  });

  it('serves /v1 JSON with nosniff too', async () => {
    const res = await get('/v1/emails', { Authorization: `Bearer ${KEY}` });
    expect(header(res, 'x-content-type-options')).toBe('nosniff');
  });
});

describe('attachment and raw downloads', () => {
  const hostile = ['../../etc/passwd', '..\\..\\boot.ini', '"quoted" name.txt', 'back\\slash.txt', '<script>alert(1)</script>.html', 'invoice\u202egpj.exe', 'naïve café 😀.pdf', '.htaccess', 'nul\u0000byte.txt', ' spaced .txt', 'x'.repeat(255)];

  function checkDisposition(value: string, original: string): string[] {
    const problems: string[] = [];
    if (!/^attachment;/.test(value)) problems.push(`not an attachment: ${value}`);
    const ascii = /filename="([^"]*)"/.exec(value)?.[1];
    if (ascii === undefined) problems.push(`no quoted ASCII filename: ${value}`);
    else if (!/^[\x20-\x7e]*$/.test(ascii) || /[\\/"]/.test(ascii) || ascii.startsWith('.')) problems.push(`unsafe ASCII filename ${JSON.stringify(ascii)} for ${JSON.stringify(original)}`);
    const star = /filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]+)$/.exec(value)?.[1];
    if (star === undefined) problems.push(`no RFC 8187 filename*: ${value}`);
    else {
      const decoded = decodeURIComponent(star);
      if (/[\\/\x00-\x1f\x7f]/.test(decoded)) problems.push(`filename* decodes to a path or control characters: ${JSON.stringify(decoded)}`);
    }
    if (/[\r\n]/.test(value)) problems.push('header injection');
    return problems;
  }

  it('downloads attachments (API-sent) as attachments with safe names, never rendered', async () => {
    const attachments = hostile.filter((f) => !/[\r\n\u0000]/.test(f)).map((filename, i) => ({ filename, content: Buffer.from(`<script>alert(${i})</script>`).toString('base64'), contentType: i % 2 ? 'text/html' : 'image/svg+xml' }));
    const problems: string[] = [];
    for (let start = 0; start < attachments.length; start += 5) {
      const chunk = attachments.slice(start, start + 5);
      const sent = await server.api('/v1/send', { method: 'POST', key: KEY, json: { to: 'dl@x.test', subject: 'hostile names', body: 'x', attachments: chunk } });
      expect(sent.status).toBe(200);
      const id = sent.body.data[0].email_id;
      for (let i = 0; i < chunk.length; i++) {
        const res = await get(`/sandbox/emails/${id}/attachments/${i}`);
        expect(res.status).toBe(200);
        problems.push(...checkDisposition(header(res, 'content-disposition'), chunk[i].filename));
        if (header(res, 'x-content-type-options') !== 'nosniff') problems.push('attachment without nosniff');
        if (!/sandbox/.test(header(res, 'content-security-policy'))) problems.push('attachment without a sandboxing CSP');
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps names safe for attachments that arrive over SMTP with encoded control characters and paths', async () => {
    const names = [
      '=?utf-8?B?' + Buffer.from('evil\r\nX-Injected: 1.txt').toString('base64') + '?=',
      "utf-8''..%2F..%2Fetc%2Fpasswd",
      "utf-8''nul%00byte%0D%0A.txt",
      '=?utf-8?Q?invoice=E2=80=AEgpj.exe?=',
    ];
    const parts = names.map((name, i) => {
      const param = name.startsWith("utf-8''") ? `filename*=${name}` : `filename="${name}"`;
      return `--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; ${param}\r\nContent-Transfer-Encoding: base64\r\n\r\n${Buffer.from(`part ${i}`).toString('base64')}\r\n`;
    });
    const message = `From: a@x.test\r\nTo: b@x.test\r\nSubject: smtp names\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nbody\r\n${parts.join('')}--b--\r\n`;
    const { client: smtp } = await RawSmtp.open(server.smtpPort);
    await smtp.command('EHLO x.test');
    const reply = await smtp.sendRaw('a@x.test', ['b@x.test'], message);
    await smtp.quit();
    expect(reply.code).toBe(250);
    const id = queuedId(reply);
    const view = await server.api(`/sandbox/emails/${id}`);
    const files = view.body.data.files as { index: number; filename: string }[];
    expect(files.length).toBe(names.length);
    const problems: string[] = [];
    for (const file of files) {
      const res = await get(`/sandbox/emails/${id}/attachments/${file.index}`);
      problems.push(...checkDisposition(header(res, 'content-disposition'), file.filename));
    }
    expect(problems).toEqual([]);
  });

  it('downloads the raw source as an .eml attachment', async () => {
    const res = await get(`/sandbox/emails/${emailId}/raw`);
    expect(header(res, 'content-type')).toMatch(/^message\/rfc822/);
    expect(header(res, 'content-disposition')).toBe(`attachment; filename="${emailId}.eml"`);
    expect(header(res, 'x-content-type-options')).toBe('nosniff');
  });
});

describe('forged requests (CONTRACT §8)', () => {
  it('answers 403 to every /sandbox route and the inbox under a foreign Host, reads included', async () => {
    const targets = [...sandboxRoutes(emailId), { method: 'GET', path: '/' }, { method: 'GET', path: '/emails/x' }];
    for (const host of ['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', 'evil.example:80']) {
      for (const { method, path } of targets) {
        const out = await client.send({ method, path, headers: { Host: host, 'Content-Type': 'application/json' }, body: SAFE.has(method) ? undefined : '{}' });
        expect(out.ok && out.res.status, `${method} ${path} Host ${host}`).toBe(403);
        expect(out.ok && (out.res.json as { status?: number }).status).toBe(403);
      }
    }
  });

  it('accepts the loopback names in any case, with or without a port', async () => {
    for (const host of ['localhost', 'LOCALHOST:8025', '127.0.0.1', `127.0.0.1:${new URL(server.url).port}`, '[::1]', '[::1]:1']) {
      expect((await get('/sandbox/health', { Host: host })).status, host).toBe(200);
    }
  });

  it('answers 415 to every state-changing /sandbox route without Content-Type: application/json', async () => {
    const changing = sandboxRoutes(emailId).filter((r) => !SAFE.has(r.method));
    expect(changing.length).toBeGreaterThan(15);
    // What a foreign page can send without a CORS preflight: forms and text.
    for (const type of [null, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json-patch+json', 'text/json']) {
      for (const { method, path } of changing) {
        const headers: Record<string, string> = type ? { 'Content-Type': type } : {};
        const out = await client.send({ method, path, headers, body: '{}' });
        expect(out.ok && out.res.status, `${method} ${path} with ${type ?? 'no Content-Type'}`).toBe(415);
      }
    }
    // Declared as JSON, the same requests reach their handlers.
    for (const { method, path } of changing) {
      const out = await client.send({ method, path, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: '{}' });
      expect(out.ok && out.res.status, `${method} ${path} as JSON`).not.toBe(415);
    }
  });

  it('applies --allowed-hosts names and still refuses others', async () => {
    const named = await startServer(['--allowed-hosts', 'mail.dev.test,*.preview.test']);
    const c = httpClient(named.url);
    try {
      const status = async (host: string) => {
        const out = await c.send({ method: 'GET', path: '/sandbox/health', headers: { Host: host } });
        return out.ok ? out.res.status : 0;
      };
      expect(await status('mail.dev.test')).toBe(200);
      expect(await status('MAIL.DEV.TEST:8025')).toBe(200);
      expect(await status('pr-1.preview.test')).toBe(200);
      expect(await status('localhost')).toBe(200);
      expect(await status('preview.test.evil.example')).toBe(403);
      expect(await status('evil.example')).toBe(403);
    } finally {
      c.close();
      await named.close();
    }
  });
});

describe('--ui-auth', () => {
  let locked: TestServer;
  let c: ReturnType<typeof httpClient>;
  const good = `Basic ${Buffer.from('admin:s3cret-pass').toString('base64')}`;
  beforeAll(async () => {
    locked = await startServer(['--ui-auth', 'admin:s3cret-pass']);
    c = httpClient(locked.url);
  });
  afterAll(async () => {
    c?.close();
    await locked?.close();
  });

  it('protects the inbox, its assets, every /sandbox route and the event stream', async () => {
    const index = await c.send({ method: 'GET', path: '/', headers: { Authorization: good } });
    const asset = index.ok ? /src="(\/assets\/[^"]+)"/.exec(index.res.text)?.[1] : undefined;
    expect(asset, 'the built inbox names its script').toBeDefined();
    const targets = [...sandboxRoutes('0000000000000000').filter((r) => r.path !== '/sandbox/health'), { method: 'GET', path: '/' }, { method: 'GET', path: '/emails/x' }, ...(asset ? [{ method: 'GET', path: asset }] : [])];
    for (const auth of [null, 'Basic ' + Buffer.from('admin:wrong').toString('base64'), 'Basic ' + Buffer.from('admin:s3cret-pas').toString('base64'), 'Basic garbage!!', 'Bearer s3cret-pass']) {
      for (const { method, path } of targets) {
        const headers: Record<string, string> = { 'Content-Type': 'application/json' };
        if (auth) headers.Authorization = auth;
        const out = await c.send({ method, path, headers, body: SAFE.has(method) ? undefined : '{}' });
        expect(out.ok && out.res.status, `${method} ${path} with ${auth ?? 'no auth'}`).toBe(401);
        expect(out.ok && header(out.res, 'www-authenticate')).toMatch(/^Basic realm="sendbox"/);
        expect(out.ok && (out.res.json as { status?: number }).status).toBe(401);
      }
    }
  });

  it('lets the right password through, keeps /sandbox/health open for probes and /v1 on its bearer keys', async () => {
    const inbox = await c.send({ method: 'GET', path: '/', headers: { Authorization: good } });
    expect(inbox.ok && inbox.res.status).toBe(200);
    const events = await c.send({ method: 'GET', path: '/sandbox/events', headers: { Authorization: good } });
    expect(events.ok && events.res.status).toBe(200);
    expect(events.ok && header(events.res, 'content-type')).toMatch(/^text\/event-stream/);
    const health = await c.send({ method: 'GET', path: '/sandbox/health' });
    expect(health.ok && health.res.status).toBe(200);
    const v1 = await c.send({ method: 'GET', path: '/v1/emails', headers: { Authorization: `Bearer ${KEY}` } });
    expect(v1.ok && v1.res.status).toBe(200);
  });
});
