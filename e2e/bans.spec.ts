import type { Page } from '@playwright/test';
import { demoPassword, expect, expectAccessible, newContext, test } from './fixtures';

// Issue 29 item 10 in English on a desktop and a phone (accounts.spec.ts walks it in Swedish):
// banning asks for a reason; the banned person reads it at login and still reaches their data.

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900, who: { email: 'liwei@demo.recensera.se', name: 'Li Wei Chen' } },
  { name: 'phone', width: 375, height: 800, who: { email: 'johanna@demo.recensera.se', name: 'Johanna Virtanen' } },
] as const;

async function signIn(page: Page, email: string) {
  const res = await page.request.post('/api/users/logIn', { data: { email, password: demoPassword() } });
  expect(res.ok()).toBe(true);
}

for (const viewport of VIEWPORTS) {
  test(`${viewport.name}, en: a ban asks for a reason; the banned person reads it and keeps their data (29.10)`, async ({ page, browser }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const { email, name } = viewport.who;
    await signIn(page, 'admin@demo.recensera.se');
    await page.goto('/user-mng?lang=en');
    await expect(page.getByRole('heading', { level: 1, name: 'User management' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search by name or e-mail' }).fill(email);
    const row = page.getByRole('row').filter({ hasText: email });
    await expect(row).toHaveCount(1);
    await row.getByRole('switch', { name: `Ban ${name}` }).press('Space');
    const dialog = page.getByRole('alertdialog', { name: `Ban ${name}?` });
    await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
    await expect(dialog.getByText('Write a reason.')).toBeVisible();
    await expectAccessible(page, `ban dialog (${viewport.name}, en)`);
    await dialog.getByLabel('Reason (shown to the person)').fill('Fake reviews');
    await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
    await expect(row.getByRole('switch', { name: `Ban ${name}` })).toBeChecked();
    const { _id: id } = await (await page.request.get(`/api/users?q=${encodeURIComponent(email)}`)).json().then((users: { _id: string }[]) => users[0]);

    try {
      // The banned person, logging in in English, reads why and still reaches their data.
      const context = await newContext(browser, { baseURL: new URL(page.url()).origin, viewport: { width: viewport.width, height: viewport.height } });
      const them = await context.newPage();
      await them.goto('/login?lang=en');
      await them.getByLabel('Email').fill(email);
      await them.getByLabel('Password', { exact: true }).fill(demoPassword());
      await them.getByRole('button', { name: 'Log in', exact: true }).click();
      const notice = them.getByRole('alert').filter({ hasText: 'Your account has been banned.' });
      await expect(notice).toContainText('Fake reviews');
      await expectAccessible(them, `banned login (${viewport.name}, en)`);
      await notice.getByRole('link', { name: 'Download your data or delete your account' }).click();
      await them.waitForURL('**/user');
      await expect(them.getByRole('button', { name: /delete/i }).first()).toBeVisible();
      await context.close();
    } finally {
      // Unbanned again for every other journey.
      const res = await page.request.put(`/api/users/update/${id}`, { data: { isBanned: false } });
      expect(res.ok()).toBe(true);
    }
  });
}
