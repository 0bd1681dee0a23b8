import type { Page } from '@playwright/test';
import { demoPassword, expect, test } from './fixtures';

/**
 * The home feed opens on pictures: most demo comments carry one the seed drew, and a card
 * without one shows its business on a tint rather than a grey "no image" box.
 */
const SHOTS = process.env.E2E_SHOTS_DIR;

const feedOf = (page: Page) => page.getByRole('region', { name: /Utforska kommentarerna med högst betyg|Explore the top-rated comments/ });

test('the home feed shows drawn pictures, and designed cards where a comment has none', async ({ page, baseURL }) => {
  await page.goto('/');
  // The served feed is hydrated when the app takes over (its filter is enabled then): wait for it.
  await expect(feedOf(page).getByRole('radio', { name: /Alla kommentarer|All Comments/ })).toBeEnabled();
  const cards = feedOf(page).getByRole('list').first().getByRole('listitem');
  await expect(cards).toHaveCount(12);
  const photos = cards.locator('img[src^="/uploads/"][src$=".webp"]');
  const placeholders = cards.getByTestId('no-photo');
  expect(await photos.count()).toBeGreaterThanOrEqual(6);
  expect((await photos.count()) + (await placeholders.count())).toBe(12);
  await expect(placeholders.first()).toBeVisible();
  await expect(page.getByText(/Ingen bild tillgänglig|No Image Available/)).toHaveCount(0);
  // The pictures decode (a broken one would have no natural size).
  for (const photo of await photos.all()) {
    await photo.scrollIntoViewIfNeeded();
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(960);
  }

  if (!SHOTS) return;
  test.setTimeout(180_000);
  for (const lang of ['sv', 'en'] as const) {
    await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.goto('/');
      const feed = feedOf(page);
      const first = feed.getByRole('list').first().getByRole('listitem');
      await expect(first).toHaveCount(12);
      for (const img of await feed.locator('img').all()) {
        await img.scrollIntoViewIfNeeded();
        await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete)).toBe(true);
      }
      await feed.screenshot({ path: `${SHOTS}/feed-${lang}-${width}.png` });
      const without = first.filter({ has: page.getByTestId('no-photo') }).first();
      await without.screenshot({ path: `${SHOTS}/card-without-photo-${lang}-${width}.png` });
    }
  }
  // The whole home page, as the demo admin sees it.
  expect((await page.request.post('/api/users/logIn', { data: { email: 'admin@demo.recensera.se', password: demoPassword() } })).ok()).toBe(true);
  for (const lang of ['sv', 'en'] as const) {
    await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.goto('/');
      await expect(feedOf(page).getByRole('list').first().getByRole('listitem')).toHaveCount(12);
      // Lazy pictures load once near the viewport: past them once, then back up.
      await feedOf(page)
        .getByRole('button', { name: /Visa fler|Load More/ })
        .scrollIntoViewIfNeeded();
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}/home-admin-${lang}-${width}.png`, fullPage: true });
    }
  }
});
