import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.js';
import { invoiceEmail, resetEmail } from './data.js';

// Pictures of the four main screens in both themes, for people to look at (e2e/screenshots, git-ignored).
for (const theme of ['light', 'dark'] as const) {
  test(`screenshots of the inbox, a message, the delivery timeline and the domains page (${theme})`, async ({ page, sendbox }) => {
    const { send, teamId } = sendbox;
    await send({ from: 'Ops <ops@acme.test>', to: 'oncall+bounced@example.com', subject: 'Nightly backup finished with warnings', body: 'The backup of db-3 finished in 41 minutes with 2 warnings.' });
    await send({ from: 'Acme News <news@acme.test>', to: 'reader+complaint@example.com', subject: 'What shipped in March', body: '<h2>March at Acme</h2><p>Faster search, dark mode, and more.</p>' });
    await send({ to: ['dana@example.com', 'lee+deferred@example.com'], subject: 'Order #8841 has shipped', body: '<p>Your order is on its way.</p>' });
    await send(invoiceEmail('dana@example.com'));
    await send({ from: 'Team <team@acme.test>', to: 'ana@example.com', cc: 'bo@example.com', subject: 'Standup notes — Tuesday', body: 'Yesterday: search parser. Today: delivery timeline. Blockers: none.' });
    const resetId = await send(resetEmail('dana@example.com'));
    await sendbox.wait({ team_id: teamId, subject: 'Nightly backup', count: '1' });

    await page.emulateMedia({ colorScheme: theme });
    await page.goto(`/emails/${resetId}?team=${teamId}`);
    const frame = page.frameLocator('iframe[title="HTML body"]');
    await expect(frame.getByText('Reset your password')).toBeVisible();
    await expect(page.getByRole('link', { name: /Nightly backup/ }).getByText('bounced', { exact: true })).toBeVisible();
    await shot(page, `inbox-${theme}`);

    await page.getByRole('tab', { name: 'Links & codes' }).click();
    await expect(page.getByText('482913')).toBeVisible();
    await shot(page, `message-links-${theme}`);
    await page.getByRole('tab', { name: 'Checks' }).click();
    await shot(page, `message-checks-${theme}`);

    await page.getByRole('link', { name: /Nightly backup/ }).click();
    await page.getByRole('tab', { name: 'Delivery' }).click();
    await expect(page.getByRole('region', { name: 'Delivery to oncall+bounced@example.com' }).getByText(/^5\d\d$/)).toBeVisible();
    await shot(page, `delivery-${theme}`);

    await page.getByRole('link', { name: /Your invoice #2041/ }).click();
    await page.getByRole('tab', { name: 'HTML' }).click();
    await expect(page.frameLocator('iframe[title="HTML body"]').getByText('Total:')).toBeVisible();
    await shot(page, `message-${theme}`);
    await page.getByRole('tab', { name: /Attachments/ }).click();
    await shot(page, `message-attachments-${theme}`);

    await page.getByRole('link', { name: 'Domains' }).click();
    await page.getByLabel('Domain', { exact: true }).fill(`mail-${theme}.acme.test`);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expect(page.getByRole('table', { name: 'DNS records' })).toBeVisible();
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('region', { name: `Domain mail-${theme}.acme.test` }).getByText('success').first()).toBeVisible();
    await shot(page, `domains-${theme}`);

    await page.getByRole('link', { name: 'Scenarios' }).click();
    const form = page.getByRole('form', { name: 'New rule' });
    await form.getByLabel('Recipient').fill(`*+late-${theme}@*`);
    await form.getByLabel('Times').fill('1');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await expect(page.getByRole('table', { name: 'Rule list' })).toContainText(`*+late-${theme}@*`);
    await page.setViewportSize({ width: 1440, height: 1500 });
    await shot(page, `scenarios-${theme}`);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/?team=${teamId}`);
    await expect(page.getByRole('link', { name: /Order #8841/ })).toBeVisible();
    await shot(page, `phone-inbox-${theme}`);
    await page.getByRole('link', { name: /Reset your Acme password/ }).click();
    await expect(page.frameLocator('iframe[title="HTML body"]').getByText('Reset your password')).toBeVisible();
    await shot(page, `phone-message-${theme}`);
  });
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/screenshots/${name}.png` });
}
