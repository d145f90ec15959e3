import { test, expect } from './fixtures.js';

test('dark mode follows the system and toggles, and the choice survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  const html = page.locator('html');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();

  const theme = page.getByRole('radiogroup', { name: 'Theme' });
  await expect(theme.getByRole('radio', { name: 'System theme' })).toBeChecked();
  await theme.getByRole('radio', { name: 'Dark theme' }).click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect.poll(background).not.toBe(light);
  const dark = await background();

  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await background()).toBe(dark);

  await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Light theme' }).click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  expect(await background()).toBe(light);

  await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'System theme' }).click();
  await expect(html).not.toHaveAttribute('data-theme', /.+/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(background).toBe(dark);
});
