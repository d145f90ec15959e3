import { randomUUID } from 'node:crypto';
import { test, expect } from './fixtures.js';

test.describe('scenarios', () => {
  test('a rule created in the UI makes the next send bounce, once', async ({ page, sendbox }) => {
    const address = `rule-${randomUUID().slice(0, 8)}@example.com`;
    await page.goto('/scenarios');
    const form = page.getByRole('form', { name: 'New rule' });
    await form.getByLabel('Recipient').fill(address);
    await form.getByLabel('SMTP code').fill('451');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await expect(form.getByText('For bounced, use a 5xx code such as 550.')).toBeVisible();

    await form.getByLabel('SMTP code').fill('550');
    await form.getByLabel('Response').fill('5.1.1 mailbox does not exist');
    await form.getByLabel('Times').fill('1');
    await form.getByRole('button', { name: 'Add rule' }).click();
    const rule = page.getByRole('table', { name: 'Rule list' }).getByRole('row', { name: new RegExp(address) });
    await expect(rule).toContainText('bounced 550 5.1.1 mailbox does not exist');
    await expect(form.getByLabel('Recipient')).toHaveValue('');

    const first = await sendbox.send({ to: address, subject: 'First after the rule', body: 'x' });
    const second = await sendbox.send({ to: address, subject: 'Second after the rule', body: 'x' });
    await page.goto(`/emails/${first}?team=${sendbox.teamId}&tab=delivery`);
    const delivery = page.getByRole('region', { name: `Delivery to ${address}` });
    await expect(delivery.getByText('550', { exact: true })).toBeVisible();
    await expect(delivery).toContainText('5.1.1 mailbox does not exist');
    await expect(delivery).toContainText(/decided by rule #\d+/);
    await page.goto(`/emails/${second}?team=${sendbox.teamId}&tab=delivery`);
    await expect(page.getByRole('region', { name: `Delivery to ${address}` }).getByText('delivered', { exact: true }).first()).toBeVisible();

    await page.goto('/scenarios');
    await expect(rule).toContainText('spent');
    await rule.getByRole('button', { name: /Delete rule/ }).click();
    await rule.getByRole('button', { name: /Delete rule \d+/ }).click();
    await expect(rule).toHaveCount(0);
  });

  test('pauses and resumes delivery, saves chaos settings and adds a webhook', async ({ page }) => {
    await page.goto('/scenarios');
    await page.getByRole('button', { name: 'Pause delivery' }).click();
    await expect(page.getByRole('heading', { name: 'Delivery is paused' })).toBeVisible();
    await page.getByRole('button', { name: 'Resume delivery' }).click();
    await expect(page.getByRole('heading', { name: 'Delivery is running' })).toBeVisible();

    const chaos = page.getByRole('form', { name: 'Chaos settings' });
    await chaos.getByLabel('Bounced %').fill('150');
    await chaos.getByRole('button', { name: 'Save chaos' }).click();
    await expect(chaos.getByText('Bounced is a percentage from 0 to 100.')).toBeVisible();
    await chaos.getByLabel('Bounced %').fill('0');
    await chaos.getByLabel('Seed').fill('42');
    await chaos.getByRole('button', { name: 'Save chaos' }).click();
    await expect(chaos.getByText('Saved')).toBeVisible();

    const hook = page.getByRole('form', { name: 'New webhook' });
    const url = `http://127.0.0.1:9/hooks/${randomUUID().slice(0, 8)}`;
    await hook.getByLabel('Endpoint URL').fill(url);
    await hook.getByLabel('Events').fill('email.bounced');
    await hook.getByRole('button', { name: 'Add webhook' }).click();
    const webhooks = page.getByRole('region', { name: 'Webhooks' });
    const item = webhooks.getByRole('listitem').filter({ hasText: url });
    await expect(item).toBeVisible();
    await expect(item).toContainText('email.bounced');
    await item.getByRole('button', { name: 'Attempts' }).click();
    // Specs share one server: another spec's bounce may already have reached this webhook.
    await expect(webhooks.getByText('No deliveries yet').or(webhooks.getByRole('table', { name: 'Delivery attempts' }))).toBeVisible();
    await item.getByRole('button', { name: /Delete webhook/ }).click();
    await item.getByRole('button', { name: 'Delete webhook', exact: true }).click();
    await expect(item).toHaveCount(0);
  });
});
