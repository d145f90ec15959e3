import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.js';

/** Tags, the search language, bulk actions, the retention note and desktop notifications, as a user sees them. */

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/screenshots/${name}.png` });
}

test.describe('everyday tools', () => {
  test('tags: chips from X-Tags, added and removed in the message, renamed across all mail from the sidebar', async ({ page, sendbox }) => {
    await sendbox.send({ to: 'ana@example.com', subject: 'Welcome to Acme', body: '<p>Hi Ana</p>', headers: { 'X-Tags': 'signup, onboarding' } });
    await sendbox.send({ to: 'bo@example.com', subject: 'Your invoice #12', body: 'Total 12 EUR', headers: { 'X-Tags': 'billing' } });
    await sendbox.send({ to: 'cy@example.com', subject: 'Weekly digest', body: 'news' });
    await sendbox.wait({ team_id: sendbox.teamId, count: '3' });
    await page.goto(`/?team=${sendbox.teamId}`);

    const welcome = page.getByRole('link', { name: /Welcome to Acme/ });
    await expect(welcome.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText(['signup', 'onboarding']);

    await welcome.click();
    const tags = page.getByRole('list', { name: 'Tags of this email' });
    await expect(tags.getByRole('listitem')).toHaveText(['signup', 'onboarding']);
    await page.getByLabel('Add a tag').fill('vip, Beta');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await expect(tags.getByRole('listitem')).toHaveText(['signup', 'onboarding', 'vip', 'Beta']);
    await page.getByRole('button', { name: 'Remove tag onboarding' }).click();
    await expect(tags.getByRole('listitem')).toHaveText(['signup', 'vip', 'Beta']);
    // The row follows without a reload.
    await expect(welcome.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText(['signup', 'vip', 'Beta']);
    await shot(page, 'tags-message');

    const sidebar = page.getByRole('navigation', { name: 'Tags' });
    await sidebar.getByRole('link', { name: /billing/ }).click();
    const rows = page.getByRole('list', { name: 'Emails' }).getByRole('link');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Your invoice #12');
    await expect(page.getByRole('searchbox', { name: 'Search emails' })).toHaveValue('tag:billing');

    await sidebar.getByRole('button', { name: 'Rename tag billing' }).click();
    await sidebar.getByLabel('New name for tag billing').fill('invoices');
    await sidebar.getByRole('button', { name: 'Rename', exact: true }).click();
    await expect(sidebar.getByRole('link', { name: /invoices/ })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search emails' }).fill('tag:invoices');
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByRole('list', { name: 'Tags' })).toHaveText('invoices');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('searchbox', { name: 'Search emails' }).fill('');
    await expect(rows).toHaveCount(3);
    await rows.filter({ hasText: 'Welcome to Acme' }).click();
    await expect(page.getByRole('list', { name: 'Tags of this email' })).toBeVisible();
    await shot(page, 'tags-dark');
  });

  test('search: filters as removable chips, an unparseable term explained and left out', async ({ page, sendbox }) => {
    await sendbox.send({ from: 'Billing <billing@acme.test>', to: 'dana@example.com', subject: 'Invoice 17', body: 'due', headers: { 'X-Tags': 'paid' } });
    await sendbox.send({ from: 'Billing <billing@acme.test>', to: 'dana@example.com', subject: 'Invoice 18', body: 'due' });
    await sendbox.send({ from: 'Support <support@acme.test>', to: 'dana@example.com', subject: 'Ticket 4', body: 'help' });
    await sendbox.wait({ team_id: sendbox.teamId, count: '3' });
    await page.goto(`/?team=${sendbox.teamId}`);
    const rows = page.getByRole('list', { name: 'Emails' }).getByRole('link');
    await expect(rows).toHaveCount(3);

    const search = page.getByRole('searchbox', { name: 'Search emails' });
    await search.fill('from:billing -tag:paid status:lost');
    const chips = page.getByRole('list', { name: 'Search filters' }).getByRole('listitem');
    await expect(chips).toHaveText(['from contains "billing"', 'not tagged "paid"', /status:lost: unknown status "lost"/]);
    // The unparseable term is left out of the request: the other two still filter.
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Invoice 18');
    await shot(page, 'search-chips');

    await page.getByRole('button', { name: 'Remove -tag:paid' }).click();
    await expect(search).toHaveValue('from:billing status:lost');
    await expect(rows).toHaveCount(2);
    await page.getByRole('button', { name: 'Remove status:lost' }).click();
    await expect(chips).toHaveText(['from contains "billing"']);
  });

  test('bulk: select rows, mark them read and tag them; then every email matching the search, deleted at once', async ({ page, sendbox }) => {
    for (let i = 1; i <= 53; i++) await sendbox.send({ to: `user${i}@example.com`, subject: `Report ${i}`, body: 'numbers' });
    await sendbox.send({ to: 'keep@example.com', subject: 'Keep me', body: 'stay' });
    await sendbox.wait({ team_id: sendbox.teamId, count: '54' });
    await page.goto(`/?team=${sendbox.teamId}`);

    await page.getByRole('checkbox', { name: 'Select: Keep me' }).check();
    await page.getByRole('checkbox', { name: 'Select: Report 53' }).check();
    const bar = page.getByRole('region', { name: 'Selected emails' });
    await expect(bar.getByText('2 selected')).toBeVisible();
    await bar.getByRole('button', { name: 'Mark read' }).click();
    await expect(page.getByRole('link', { name: /Keep me/ })).not.toHaveAttribute('data-unread');
    await expect(page.getByRole('link', { name: /Report 53/ })).not.toHaveAttribute('data-unread');
    await expect(page.getByRole('link', { name: /Report 52/ })).toHaveAttribute('data-unread', 'true');
    await bar.getByRole('button', { name: 'Tag', exact: true }).click();
    await bar.getByLabel('Add tags').fill('quarterly');
    await bar.getByRole('button', { name: 'Tag 2' }).click();
    await expect(page.getByRole('link', { name: /Keep me/ }).getByRole('list', { name: 'Tags' })).toHaveText('quarterly');

    await page.getByRole('searchbox', { name: 'Search emails' }).fill('subject:report');
    // The search applies once typing pauses: wait for it before selecting (a new search empties the selection).
    await expect(page.getByText('1–50 of 53')).toBeVisible();
    const rows = page.getByRole('list', { name: 'Emails' }).getByRole('link');
    await expect(rows).toHaveCount(50);
    await page.getByRole('checkbox', { name: 'Select every email on this page' }).check();
    await expect(bar.getByText('50 selected')).toBeVisible();
    await bar.getByRole('button', { name: 'Select all 53 matching this search' }).click();
    await expect(bar.getByText('All 53 matching')).toBeVisible();
    await shot(page, 'bulk-select-all');
    await bar.getByRole('button', { name: 'Delete' }).click();
    await bar.getByRole('button', { name: 'Delete 53' }).click();
    await expect(page.getByText('No emails match')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search emails' }).fill('');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Keep me');
  });

  test('shows the retention in force under the list', async ({ page, sendbox }) => {
    await page.goto(`/?team=${sendbox.teamId}`);
    await expect(page.getByText(/^Retention: keeps the newest [\d,]+ emails/)).toBeVisible();
  });

  test('desktop notifications: opt in for one mailbox, then each new email there notifies', async ({ page, context, sendbox }) => {
    await context.grantPermissions(['notifications']);
    // Records what the inbox shows; the browser's own Notification still does the work.
    await page.addInitScript(() => {
      const Real = window.Notification;
      const shown: { title: string; body?: string }[] = [];
      (window as unknown as { shown: typeof shown }).shown = shown;
      class Recording extends Real {
        constructor(title: string, options?: NotificationOptions) {
          shown.push({ title, body: options?.body });
          super(title, options);
        }
      }
      Object.defineProperty(Recording, 'permission', { get: () => Real.permission });
      Object.defineProperty(Recording, 'requestPermission', { value: Real.requestPermission.bind(Real) });
      window.Notification = Recording as unknown as typeof Notification;
    });
    await page.goto(`/?team=${sendbox.teamId}`);
    const toggle = page.getByRole('button', { name: 'Notify' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    await expect(page.getByRole('button', { name: 'Notifying' })).toHaveAttribute('aria-pressed', 'true');

    await sendbox.send({ to: 'ops@example.com', subject: 'Disk almost full', body: 'db-3 at 91%' });
    await expect.poll(() => page.evaluate(() => (window as unknown as { shown: { title: string }[] }).shown.map((n) => n.title))).toEqual(['Disk almost full']);
    await shot(page, 'notify-on');
  });
});
