import type { Page } from '@playwright/test';
import { E2E_EMPTY_OUTBOX, E2E_EMPTY_PORT } from './env';
import { expect, expectAccessible, linkIn, readMail, test } from './fixtures';

/**
 * A fresh install (DEMO_DATA=0, the second server of playwright.config.ts) says honestly that
 * it is empty: no spinner that never stops, no invented counts; its admin is asked to add the
 * first business.
 */
const SHOTS = process.env.E2E_SHOTS_DIR;

test.use({ baseURL: `http://127.0.0.1:${E2E_EMPTY_PORT}` });

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function useLanguage(page: Page, lang: 'sv' | 'en') {
  await page.context().addCookies([{ name: 'lang', value: lang, url: `http://127.0.0.1:${E2E_EMPTY_PORT}` }]);
}

/** The home page and the directory of an empty site, as they look to this visitor. */
async function expectEmpty(page: Page, lang: 'sv' | 'en', who: string) {
  const text =
    lang === 'sv'
      ? {
          justOpened: 'Recensera har precis öppnat.',
          empty: 'Det finns inga butiker på Recensera ännu.',
          noStores: 'Här visas butikerna så snart de första har lagts till.',
        }
      : {
          justOpened: 'Recensera has only just opened.',
          empty: 'There are no stores on Recensera yet.',
          noStores: 'Stores will appear here as soon as the first ones have been added.',
        };
  await page.goto('/');
  await expect(page.getByText(text.noStores)).toBeVisible();
  await expect(page.getByText(text.justOpened)).toBeVisible();
  await expect(page.getByText('20+')).toHaveCount(0);
  await expect(page.getByText(/Fler än 20|More than 20/)).toHaveCount(0);
  await shot(page, `empty-home-${who}-${lang}`);

  await page.goto('/business');
  await expect(page.getByText(text.empty)).toBeVisible();
  // Loaded and empty: nothing says it is still busy.
  await expect(page.getByRole('status')).toHaveCount(0);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await shot(page, `empty-directory-${who}-${lang}`);
}

test.describe('a fresh install', () => {
  test('shows a visitor an honest empty home page and directory, in both languages', async ({ page }) => {
    await expectEmpty(page, 'sv', 'visitor');
    await expect(page.getByRole('link', { name: 'Lägg till ett företag' })).toHaveCount(0);
    await expectAccessible(page, 'empty directory');
    await useLanguage(page, 'en');
    await expectEmpty(page, 'en', 'visitor');
  });

  test('asks its admin to add the first business, on the home page and in the directory', async ({ page }) => {
    const email = 'e2e-admin@example.com';
    const password = 'Forsta-admin-losen-9';
    const startedAt = Date.now();
    const registered = await page.request.post('/api/users/register', {
      data: { firstName: 'Ada', lastName: 'Admin', email, password, confirmPassword: password },
    });
    expect(registered.status()).toBe(201);
    await page.goto(linkIn(await readMail(email, { after: startedAt - 1000, outbox: E2E_EMPTY_OUTBOX }), '/users/confirm-email'));
    await expect(page.getByText('Din e-postadress är bekräftad. Nu kan du logga in.')).toBeVisible();
    expect((await page.request.post('/api/users/logIn', { data: { email, password } })).ok()).toBe(true);

    await expectEmpty(page, 'sv', 'admin');
    const prompt = page.getByRole('region', { name: 'Katalogen är tom' });
    await expect(prompt).toBeVisible();
    await expectAccessible(page, 'first-run prompt');
    await page.goto('/');
    await page.getByRole('region', { name: 'Katalogen är tom' }).getByRole('link', { name: 'Lägg till ett företag' }).click();
    await expect(page).toHaveURL(/\/business-mng$/);
    await expect(page.getByRole('heading', { level: 2, name: 'Lägg till företag' })).toBeVisible();

    await useLanguage(page, 'en');
    await expectEmpty(page, 'en', 'admin');
    await expect(page.getByRole('region', { name: 'The directory is empty' }).getByRole('link', { name: 'Add a business' })).toHaveAttribute(
      'href',
      '/business-mng',
    );
  });
});
