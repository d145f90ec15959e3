import nodemailer from 'nodemailer';
import { test, expect, newKey, teamOf } from './fixtures.js';

test.describe('the inbox', () => {
  test('shows an email sent through the API without a reload, and its status changing live', async ({ page, sendbox }) => {
    await page.goto(`/?team=${sendbox.teamId}`);
    await expect(page.getByText('No emails yet')).toBeVisible();
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    await sendbox.send({ to: 'live@example.com', subject: 'Arrives by itself', body: '<p>Hello</p>' });

    const row = page.getByRole('link', { name: /Arrives by itself/ });
    await expect(row).toBeVisible();
    await expect(row.getByText('delivered', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  test('shows an email sent over SMTP without a reload', async ({ page, sendbox }) => {
    await page.goto(`/?team=${sendbox.teamId}`);
    await expect(page.getByText('No emails yet')).toBeVisible();

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: sendbox.smtpPort, secure: false, auth: { user: 'app', pass: sendbox.key }, tls: { rejectUnauthorized: false } });
    await transport.sendMail({ from: 'Shop <shop@acme.test>', to: 'buyer@example.com', subject: 'Sent over SMTP', text: 'Plain text over SMTP', html: '<p>HTML over <b>SMTP</b></p>' });
    transport.close();

    const row = page.getByRole('link', { name: /Sent over SMTP/ });
    await expect(row).toBeVisible();
    await row.click();
    await expect(page.getByText(/^SMTP · key #/)).toBeVisible();
    await expect(page.frameLocator('iframe[title="HTML body"]').getByText('SMTP', { exact: true })).toBeVisible();
  });

  test('narrows the list with search filters and the status menu', async ({ page, sendbox }) => {
    await sendbox.send({ from: 'Billing <billing@acme.test>', to: 'dana@example.com', subject: 'Invoice 17', body: 'invoice' });
    await sendbox.send({ from: 'Support <support@acme.test>', to: 'lee+bounced@example.com', subject: 'Ticket 4 closed', body: 'ticket' });
    await sendbox.send({ from: 'Support <support@acme.test>', to: 'dana@example.com', subject: 'Ticket 5 opened', body: 'ticket' });
    await sendbox.wait({ team_id: sendbox.teamId, count: '3', subject: '' });
    await page.goto(`/?team=${sendbox.teamId}`);
    const rows = page.getByRole('list', { name: 'Emails' }).getByRole('link');
    await expect(rows).toHaveCount(3);
    // The bounce lands a moment after the send.
    await expect(page.getByRole('link', { name: /Ticket 4 closed/ }).getByText('bounced', { exact: true })).toBeVisible();

    const search = page.getByRole('searchbox', { name: 'Search emails' });
    await search.fill('from:support');
    await expect(rows).toHaveCount(2);
    await search.fill('from:support to:dana');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Ticket 5 opened');

    await search.fill('invoice');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Invoice 17');

    await search.fill('');
    await expect(rows).toHaveCount(3);
    await page.getByRole('combobox', { name: 'Status' }).selectOption('bounced');
    await expect(search).toHaveValue('status:bounced');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Ticket 4 closed');
    await expect(page).toHaveURL(/q=status%3Abounced/);

    await search.fill('status:nonsense');
    await expect(page.getByText(/unknown status "nonsense"/)).toBeVisible();
  });

  test('separates the mailboxes of two API keys', async ({ page, sendbox }) => {
    const otherKey = newKey();
    await sendbox.send({ to: 'a@example.com', subject: 'Only for key A', body: 'a' });
    await sendbox.send({ to: 'b@example.com', subject: 'Only for key B', body: 'b' }, otherKey);
    await page.goto('/');

    const mailboxes = page.getByRole('navigation', { name: 'Mailboxes' });
    await mailboxes.getByRole('link', { name: new RegExp(sendbox.teamId) }).click();
    await expect(page.getByRole('link', { name: /Only for key A/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /Only for key B/ })).toHaveCount(0);

    await mailboxes.getByRole('link', { name: new RegExp(teamOf(otherKey)) }).click();
    await expect(page.getByRole('link', { name: /Only for key B/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /Only for key A/ })).toHaveCount(0);
    await expect(mailboxes.getByRole('link', { name: new RegExp(teamOf(otherKey)) })).toContainText('1');
  });

  test('marks read and unread, deletes one, moves with j / k, searches with /, deletes with the Delete key, and empties a mailbox', async ({ page, sendbox }) => {
    for (const n of [1, 2, 3, 4]) await sendbox.send({ to: 'k@example.com', subject: `Keyboard ${n}`, body: `number ${n}` });
    await sendbox.wait({ team_id: sendbox.teamId, count: '4', subject: 'Keyboard' });
    await page.goto(`/?team=${sendbox.teamId}`);
    const rows = page.getByRole('list', { name: 'Emails' }).getByRole('link');
    await expect(rows).toHaveCount(4);
    const mailbox = page.getByRole('navigation', { name: 'Mailboxes' }).getByRole('link', { name: new RegExp(sendbox.teamId) });
    await expect(mailbox).toContainText('4');

    await page.keyboard.press('j');
    await expect(page.getByRole('heading', { name: 'Keyboard 4' })).toBeVisible();
    await expect(mailbox).toContainText('3');
    await page.keyboard.press('j');
    await expect(page.getByRole('heading', { name: 'Keyboard 3' })).toBeVisible();
    await page.keyboard.press('k');
    await expect(page.getByRole('heading', { name: 'Keyboard 4' })).toBeVisible();

    await page.getByRole('button', { name: 'Mark unread' }).click();
    await expect(page.getByRole('button', { name: 'Mark read' })).toBeVisible();
    await expect(rows.first()).toContainText('unread');
    await page.getByRole('button', { name: 'Mark read' }).click();
    await expect(page.getByRole('button', { name: 'Mark unread' })).toBeVisible();

    await page.keyboard.press('Delete');
    await expect(rows).toHaveCount(3);
    await expect(page.getByRole('heading', { name: 'Keyboard 3' })).toBeVisible();

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(rows).toHaveCount(2);
    await expect(page.getByRole('heading', { name: 'Keyboard 2' })).toBeVisible();

    await page.keyboard.press('/');
    await expect(page.getByRole('searchbox', { name: 'Search emails' })).toBeFocused();
    await page.keyboard.type('Keyboard 1');
    await expect(rows).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(rows).toHaveCount(2);

    await page.getByRole('button', { name: 'Delete all' }).click();
    await page.getByRole('button', { name: 'Delete every email here' }).click();
    await expect(page.getByText('No emails yet')).toBeVisible();
    expect((await sendbox.sandbox<{ pagination: { total_records: number } }>(`/sandbox/emails?team_id=${sendbox.teamId}`)).body.data.pagination.total_records).toBe(0);
  });
});
