import { test, expect } from './fixtures.js';
import { invoiceEmail, resetEmail } from './data.js';

test.describe('the message view', () => {
  test('shows the HTML in a sandboxed iframe with inline images, the text, source, headers, attachments, links, codes and checks', async ({ page, sendbox }) => {
    const id = await sendbox.send(resetEmail('dana@example.com'));
    await page.goto(`/emails/${id}?team=${sendbox.teamId}`);
    await expect(page.getByRole('heading', { name: 'Reset your Acme password' })).toBeVisible();

    const iframe = page.locator('iframe[title="HTML body"]');
    await expect(iframe).toHaveAttribute('sandbox', 'allow-popups allow-popups-to-escape-sandbox');
    const frame = page.frameLocator('iframe[title="HTML body"]');
    await expect(frame.getByRole('heading', { name: 'Reset your password' }).or(frame.getByText('Reset your password'))).toBeVisible();
    // The cid: logo is rewritten to the attachment URL and actually loads.
    const logo = frame.getByRole('img', { name: 'Acme' });
    await expect(logo).toHaveAttribute('src', new RegExp(`/sandbox/emails/${id}/attachments/0$`));
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth).catch(() => -1)).toBe(120);

    await page.getByRole('radio', { name: /Phone/ }).click();
    await expect(iframe).toHaveCSS('width', '375px');

    await page.getByRole('tab', { name: 'Text' }).click();
    await expect(page.getByRole('tabpanel')).toContainText('482913');
    await page.getByRole('tab', { name: 'Source' }).click();
    await expect(page.getByLabel('Raw source')).toContainText('Content-ID: <logo@acme>');
    // The Source is the message as submitted; the .eml is what a receiver gets (DKIM-signed for the team's domains).
    await expect(page.getByText(/as submitted · the \.eml adds sendbox's DKIM signature/)).toBeVisible();
    await page.screenshot({ path: 'e2e/screenshots/message-source.png' });
    await page.getByRole('tab', { name: /Headers/ }).click();
    await expect(page.getByRole('row', { name: /^Subject Reset your Acme password$/ })).toBeVisible();
    await page.getByRole('tab', { name: /Attachments/ }).click();
    await expect(page.getByRole('link', { name: 'Download logo.png' })).toBeVisible();
    await page.getByRole('tab', { name: /Links & codes/ }).click();
    await expect(page.getByRole('region', { name: 'Codes' })).toContainText('482913');
    await expect(page.getByRole('button', { name: 'Copy code 482913' })).toBeVisible();
    await expect(page.getByRole('link', { name: /app\.acme\.test\/reset/ })).toBeVisible();
    await page.getByRole('tab', { name: /Checks/ }).click();
    await expect(page.getByRole('list', { name: 'Checks' })).toContainText('localhost');
  });

  test('a <script> in the email does not run and cannot reach the inbox or the API', async ({ page, sendbox }) => {
    const id = await sendbox.send({
      to: 'victim@example.com',
      subject: 'Hostile markup',
      body: `<p id="target">Original text</p>
<script>
  document.getElementById('target').textContent = 'Script ran';
  try { parent.document.title = 'pwned'; } catch (e) {}
  try { parent.localStorage.setItem('pwned', '1'); } catch (e) {}
  fetch('/sandbox/emails', { method: 'DELETE', headers: { 'Content-Type': 'application/json' } });
</script>
<img src="data:," onerror="document.getElementById('target').textContent = 'Handler ran'; fetch('/sandbox/emails', { method: 'DELETE' })" alt="">
<form action="/sandbox/emails" method="post"><button id="go">Go</button></form>`,
    });
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET') calls.push(`${request.method()} ${request.url()}`);
    });
    await page.goto(`/emails/${id}?team=${sendbox.teamId}`);
    const frame = page.frameLocator('iframe[title="HTML body"]');
    await expect(frame.getByText('Original text')).toBeVisible();
    // Wait for the frame's load event: by then the inline script and the image's onerror would have run.
    const inner = await (await page.locator('iframe[title="HTML body"]').elementHandle())!.contentFrame();
    await inner!.waitForLoadState('load');
    await frame.getByRole('button', { name: 'Go' }).click();
    await expect(frame.getByText('Original text')).toBeVisible();
    await expect(frame.getByText(/Script ran|Handler ran/)).toHaveCount(0);
    await expect(page).toHaveTitle('sendbox');
    expect(await page.evaluate(() => localStorage.getItem('pwned'))).toBeNull();
    expect(calls.filter((c) => c.includes('/sandbox/emails') && !c.includes('PATCH'))).toEqual([]);
    expect((await sendbox.sandbox(`/sandbox/emails/${id}`)).status).toBe(200);
    // Subjects and names are text, never markup.
    await expect(page.getByRole('heading', { name: 'Hostile markup' })).toBeVisible();
  });

  test("a +bounced email's Delivery tab shows the bounce with its 5xx code and what decided it", async ({ page, sendbox }) => {
    const id = await sendbox.send({ to: 'nobody+bounced@example.com', subject: 'Will bounce', body: 'bye' });
    await page.goto(`/emails/${id}?team=${sendbox.teamId}&tab=delivery`);
    const recipient = page.getByRole('region', { name: 'Delivery to nobody+bounced@example.com' });
    await expect(recipient.getByText(/^5\d\d$/)).toBeVisible();
    await expect(recipient.getByText(/^5\.\d\.\d/)).toBeVisible();
    await expect(recipient).toContainText('decided by plus-tag in the address');
    await expect(page.getByRole('heading', { name: 'Will bounce' }).locator('..').getByText('bounced', { exact: true })).toBeVisible();
    await expect(recipient.getByRole('button', { name: /^Open / })).toBeDisabled();
  });

  test('simulates an open, a click and a complaint for one recipient, and downloads the .eml', async ({ page, sendbox }) => {
    const id = await sendbox.send(invoiceEmail('dana@example.com'));
    await page.goto(`/emails/${id}?team=${sendbox.teamId}&tab=delivery`);
    const dana = page.getByRole('region', { name: 'Delivery to dana@example.com' });
    await expect(dana.getByText('delivered', { exact: true }).first()).toBeVisible();

    await dana.getByRole('button', { name: 'Open dana@example.com' }).click();
    await expect(dana.getByText('opened', { exact: true })).toBeVisible();
    await dana.getByRole('button', { name: 'Click dana@example.com' }).click();
    await expect(dana.getByText('clicked', { exact: true })).toBeVisible();
    await expect(dana).toContainText('https://billing.acme.test/invoices/2041');
    await dana.getByRole('button', { name: 'Complaint dana@example.com' }).click();
    await expect(dana.getByText('complaint', { exact: true }).first()).toBeVisible();
    await expect(dana.getByRole('button', { name: 'Complaint dana@example.com' })).toBeDisabled();
    // The other recipient is untouched.
    await expect(page.getByRole('region', { name: 'Delivery to finance@example.com' }).getByText('complaint', { exact: true })).toHaveCount(0);

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download .eml' }).click();
    expect((await download).suggestedFilename()).toBe(`${id}.eml`);
  });
});
