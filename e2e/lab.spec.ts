import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, newKey, teamOf } from './fixtures.js';

/**
 * The quality lab's four panels against a sendbox of this spec's own, started with a real
 * spamd (Debian's spamd package) so the Spam panel shows a real score, and a local web
 * server for the link check. Screenshots of each panel go to e2e/screenshots.
 */

const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';
let spamd: ChildProcess;
let sendbox: ChildProcess;
let web: Server;
let url: string;
let webBase: string;
let dir: string;

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves with the first match of `pattern` in the process's output; rejects if it exits first. */
function waitFor(child: ChildProcess, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = pattern.exec(output);
      if (found) resolve(found);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error) => reject(new Error(`${what} could not start: ${error.message}`)));
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}: ${output}`)));
  });
}

const stop = (child: ChildProcess | undefined) =>
  new Promise<void>((resolve) => {
    if (!child || child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

test.describe('the quality lab panels', () => {
  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sendbox-lab-e2e-'));
    chmodSync(dir, 0o777);
    const spamdPort = await freePort();
    spamd = spawn('spamd', ['-L', '-x', '-u', 'nobody', '-H', dir, `--listen=127.0.0.1:${spamdPort}`, '--allowed-ips=127.0.0.1', '--min-children=1', '--max-children=1', '-s', 'stderr', '--pidfile', join(dir, 'spamd.pid')], { stdio: ['ignore', 'ignore', 'pipe'] });
    await waitFor(spamd, /server started on/, 'spamd');
    sendbox = spawn(process.execPath, ['dist/sendbox.mjs', '--port', '0', '--smtp-port', '0', '--db', join(dir, 'sendbox.db'), '--delay-ms', '50', '--spamassassin', `127.0.0.1:${spamdPort}`, '--link-check'], { stdio: ['ignore', 'pipe', 'pipe'] });
    url = (await waitFor(sendbox, /sendbox ready\s+(http:\/\/\S+)/, 'sendbox'))[1];
    web = createHttpServer((req, res) => res.writeHead(req.url === '/gone' ? 404 : 200).end());
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    webBase = `http://127.0.0.1:${(web.address() as { port: number }).port}`;
  });

  test.afterAll(async () => {
    await stop(sendbox);
    await stop(spamd);
    web?.closeAllConnections();
    await new Promise((resolve) => web?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const key = newKey();
  const post = async (path: string, json: unknown, bearer = true) => {
    const res = await fetch(url + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(bearer ? { Authorization: `Bearer ${key}` } : {}) }, body: JSON.stringify(json) });
    return (await res.json()) as { data: any };
  };
  const send = async (json: Record<string, unknown>) => (await post('/v1/send', { to: 'jane@example.com', ...json })).data[0].email_id as string;
  const open = async (page: import('@playwright/test').Page, id: string, tab: string) => {
    await page.goto(`${url}/emails/${id}?team=${teamOf(key)}`);
    await page.getByRole('tab', { name: tab }).click();
  };

  test('Compatibility: the score, the worst features first, filtered by platform and client', async ({ page }) => {
    const id = await send({ subject: 'November news', body: `<!DOCTYPE html><html><head><style>@font-face{font-family:Brand;src:url(${webBase}/b.woff2)} .row{display:flex}</style></head><body><div class="row" style="border-radius:8px;background-image:url(${webBase}/bg.png)"><p>Our news</p></div></body></html>` });
    await open(page, id, 'Compatibility');
    const features = page.getByRole('list', { name: 'Features' });
    await expect(features).toContainText('display:flex');
    await expect(features).toContainText('@font-face');
    await expect(features.getByRole('listitem').first()).toContainText('@font-face');
    await expect(page.getByRole('img', { name: /^Compatibility score \d/ })).toBeVisible();
    await page.screenshot({ path: 'e2e/screenshots/lab-compatibility.png', fullPage: true });
    await page.getByLabel('Client').selectOption('outlook');
    await page.getByLabel('Platform').selectOption('desktop');
    await expect(features.getByRole('listitem').filter({ hasText: 'display:flex' })).toContainText('Outlook (Windows)');
    await expect(features.getByRole('listitem').filter({ hasText: 'display:flex' })).not.toContainText('Gmail');
    await page.screenshot({ path: 'e2e/screenshots/lab-compatibility-outlook-desktop.png', fullPage: true });
  });

  test('Spam: a real spamd scores GTUBE as spam, with its rules', async ({ page }) => {
    const id = await send({ subject: 'Test', body: `Hello.\n\n${GTUBE}\n` });
    await open(page, id, 'Spam');
    await expect(page.getByText(/^Spam: \d+(\.\d+)? points, threshold 5$/)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('table', { name: 'Rules hit' })).toContainText('GTUBE');
    await page.screenshot({ path: 'e2e/screenshots/lab-spam.png', fullPage: true });
  });

  test('Link check: runs when asked and shows each link\'s status', async ({ page }) => {
    const id = await send({ subject: 'Links', body: `<p><a href="${webBase}/ok">Works</a> and <a href="${webBase}/gone">gone</a></p>` });
    await open(page, id, 'Link check');
    await page.getByRole('button', { name: 'Check links' }).click();
    const table = page.getByRole('table', { name: 'Link check results' });
    await expect(table.getByRole('row', { name: /404/ })).toContainText('answered 404');
    await expect(table.getByRole('row', { name: /200/ })).toContainText(`${webBase}/ok`);
    await expect(page.getByText('1 of 2 links and images answered OK')).toBeVisible();
    await page.screenshot({ path: 'e2e/screenshots/lab-link-check.png', fullPage: true });
  });

  test('Authentication: a verified domain\'s mail passes DKIM, SPF and DMARC; the bulk-sender rules are listed', async ({ page }) => {
    await post('/v1/domains', { value: 'lab-e2e.example' });
    await post('/v1/domains/verify?domain=lab-e2e.example', {});
    const id = await send({ from: 'Acme <news@lab-e2e.example>', subject: 'Signed', body: '<p>Hello</p>', headers: { 'List-Unsubscribe': '<https://lab-e2e.example/u>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } });
    await open(page, id, 'Authentication');
    await expect(page.getByRole('status').filter({ hasText: 'Authenticates' })).toContainText('DKIM passes for lab-e2e.example');
    for (const name of ['DKIM', 'SPF', 'DMARC']) await expect(page.getByRole('region', { name, exact: true })).toContainText('pass');
    await expect(page.getByRole('region', { name: 'Bulk-sender requirements' })).toContainText('List-Unsubscribe-Post asks for one-click unsubscribe');
    await page.screenshot({ path: 'e2e/screenshots/lab-authentication.png', fullPage: true });
  });
});

test('Spam without a filter names the flag to set', async ({ page, sendbox }) => {
  const id = await sendbox.send({ to: 'jane@example.com', subject: 'Plain', body: 'Hello' });
  await page.goto(`/emails/${id}?team=${sendbox.teamId}`);
  await page.getByRole('tab', { name: 'Spam' }).click();
  await expect(page.getByRole('heading', { name: 'No spam filter configured' })).toBeVisible();
  await expect(page.getByText('sendbox --spamassassin 127.0.0.1:783')).toBeVisible();
});

test('Link check is off until sendbox starts with --link-check, and the panel names the flag', async ({ page, sendbox }) => {
  const id = await sendbox.send({ to: 'jane@example.com', subject: 'Links', body: '<p><a href="https://example.com/">Example</a></p>' });
  await page.goto(`/emails/${id}?team=${sendbox.teamId}`);
  await page.getByRole('tab', { name: 'Link check' }).click();
  await page.getByRole('button', { name: 'Check links' }).click();
  await expect(page.getByRole('heading', { name: 'Link check is off' })).toBeVisible();
  await expect(page.getByText('sendbox --link-check', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/lab-link-check-off.png' });
});
