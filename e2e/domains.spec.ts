import { randomUUID } from 'node:crypto';
import { test, expect } from './fixtures.js';

test('a domain added in the UI shows its records, verify turns it green, a scripted failure turns it red, and it can be deleted', async ({ page, sendbox }) => {
  const name = `shop-${randomUUID().slice(0, 8)}.acme.test`;
  await page.goto(`/domains?team=${sendbox.teamId}`);
  await expect(page.getByRole('heading', { name: 'Domains', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Team')).toHaveValue(sendbox.teamId);

  await page.getByLabel('Domain', { exact: true }).fill('not a domain');
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByRole('alert')).toContainText('Enter a domain name');

  await page.getByLabel('Domain', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Add domain' }).click();
  const domain = page.getByRole('region', { name: `Domain ${name}` });
  const records = domain.getByRole('table', { name: 'DNS records' });
  await expect(records.getByRole('row')).toHaveCount(5);
  await expect(records.getByRole('row', { name: /^DKIM/ })).toContainText(`._domainkey.${name}`);
  await expect(records.getByRole('row', { name: /^DKIM/ })).toContainText('v=DKIM1; k=rsa; p=');
  await expect(records.getByRole('row', { name: /^SPF/ })).toContainText(`send.${name}`);
  await expect(records.getByRole('row', { name: /^Bounce/ })).toContainText(`bounce.${name}`);
  await expect(records.getByRole('row', { name: /^DMARC/ })).toContainText('v=DMARC1; p=none;');
  await expect(domain.getByRole('button', { name: 'Copy DKIM value' })).toBeVisible();
  const overall = domain.getByRole('heading', { name }).locator('..').locator('.badge').first();
  await expect(overall).toHaveText('not started');

  await domain.getByRole('button', { name: 'Verify' }).click();
  await expect(overall).toHaveText('success');
  await expect(overall).toHaveClass(/tone-green/);
  await expect(records.getByText('success', { exact: true })).toHaveCount(4);
  await expect(domain.getByText('can send')).toBeVisible();

  await domain.getByLabel('The next check').selectOption('failed');
  await domain.getByRole('button', { name: 'Script', exact: true }).click();
  await expect(domain.getByRole('status')).toContainText('the next check fails');
  await domain.getByRole('button', { name: 'Verify' }).click();
  await expect(overall).toHaveText('failed');
  await expect(overall).toHaveClass(/tone-red/);
  await expect(records.getByText('failed', { exact: true }).first()).toBeVisible();

  await domain.getByLabel('The next check').selectOption('records');
  await domain.getByLabel('DKIM', { exact: true }).selectOption('failed');
  await domain.getByRole('button', { name: 'Script', exact: true }).click();
  await domain.getByRole('button', { name: 'Verify' }).click();
  await expect(records.getByRole('row', { name: /^DKIM/ }).getByText('failed', { exact: true })).toBeVisible();
  await expect(records.getByRole('row', { name: /^SPF/ }).getByText('success', { exact: true })).toBeVisible();

  await domain.getByRole('button', { name: 'Delete' }).click();
  await domain.getByRole('button', { name: `Delete ${name}` }).click();
  await expect(page.getByRole('region', { name: `Domain ${name}` })).toHaveCount(0);
});
