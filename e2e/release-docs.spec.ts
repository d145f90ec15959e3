import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, newKey } from './fixtures.js';
import { spawnSendbox, type Running } from '../server/test/process.js';
import { startReceiver } from '../server/test/smtp/receiver.js';

test.describe('release to a real server', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let sendbox: Running;
  let dir: string;
  test.beforeAll(async () => {
    receiver = await startReceiver();
    dir = mkdtempSync(join(tmpdir(), 'sendbox-e2e-release-'));
    // Its own sendbox: the shared one has no relay, and release settings are start-up flags.
    sendbox = await spawnSendbox(['--port', '0', '--smtp-port', '0', '--db', join(dir, 'sendbox.db'), '--relay', `smtp://127.0.0.1:${receiver.port}`, '--relay-allow', '*@example.com', '--relay-tls', 'off', '--log-level', 'warn']);
  });
  test.afterAll(async () => {
    sendbox?.child.kill('SIGTERM');
    await sendbox?.exited;
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('sends the open email to a real mailbox from the message view', async ({ page }) => {
    const key = newKey();
    const res = await fetch(`${sendbox.httpUrl}/v1/send`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ from: 'Acme <hello@acme.test>', to: 'dana@example.com', subject: 'Your invoice', body: '<p>Invoice attached.</p>' }) });
    const id = ((await res.json()) as { data: { email_id: string }[] }).data[0].email_id;

    await page.goto(`${sendbox.httpUrl}/emails/${id}`);
    await page.getByRole('button', { name: 'Release' }).click();
    const form = page.getByRole('form', { name: 'Release to a real server' });
    const to = form.getByLabel('Release to');
    await expect(to).toHaveValue('dana@example.com');
    await expect(form).toContainText(`Through 127.0.0.1:${receiver.port}. Allowed: *@example.com`);
    await to.fill('qa@example.com, boss@elsewhere.test');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(form.getByRole('alert')).toHaveText('boss@elsewhere.test is not allowed by --relay-allow (*@example.com)');
    await page.screenshot({ path: 'e2e/screenshots/release-refused.png' });

    await to.fill('qa@example.com');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(form.getByRole('status')).toContainText(`Released to qa@example.com via 127.0.0.1:${receiver.port}: 250`);
    const received = await receiver.next();
    expect(received.to).toEqual(['qa@example.com']);
    expect(received.raw.toString()).toContain('Subject: Your invoice');
    await page.screenshot({ path: 'e2e/screenshots/release-sent.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${sendbox.httpUrl}/emails/${id}`);
    await page.getByRole('button', { name: 'Release' }).click();
    await expect(page.getByRole('textbox', { name: 'Release to' })).toBeVisible();
    await page.screenshot({ path: 'e2e/screenshots/release-phone.png' });
  });
});

test('the release form explains how to turn release on when no relay is set', async ({ page, sendbox }) => {
  const id = await sendbox.send({ to: 'erin@example.com', subject: 'No relay here', body: 'x' });
  await page.goto(`/emails/${id}?team=${sendbox.teamId}`);
  await page.getByRole('button', { name: 'Release' }).click();
  await expect(page.getByRole('form', { name: 'Release to a real server' })).toContainText('Release is off. Start sendbox with --relay smtp://user:pass@host:port');
});

test('API docs open from the inbox, render the document, and make no outside request or CSP violation', async ({ page, sendbox }) => {
  const origin = new URL(sendbox.url).origin;
  const outside: string[] = [];
  const violations: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.origin !== origin) outside.push(request.url());
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.goto('/');
  await page.getByRole('link', { name: 'API docs' }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole('heading', { name: /sendbox/ })).toBeVisible();
  const send = page.locator('.opblock-summary', { hasText: '/v1/send' }).first();
  await expect(send).toBeVisible();
  await send.click();
  await expect(page.getByText('Request body')).toBeVisible();
  await expect(page.locator('.response-col_description', { hasText: 'Accepted' }).first()).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/docs.png' });
  expect(outside).toEqual([]);
  expect(violations).toEqual([]);
});
