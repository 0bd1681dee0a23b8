import type { Page } from '@playwright/test';
import { demoPassword, expect, expectAccessible, test } from './fixtures';

/** The newest comment of the demo data: first in the home feed and in its business's list. */
async function newestComment(baseURL: string | undefined): Promise<{ id: string; businessId: string }> {
  const res = await fetch(`${baseURL}/trpc/comments.feed?input=${encodeURIComponent(JSON.stringify({ filter: 'all' }))}`);
  const body = (await res.json()) as { result: { data: { items: { _id: string; businessId: string }[] } } };
  const first = body.result.data.items[0];
  if (!first) throw new Error('no comment in the demo data');
  return { id: first._id, businessId: first.businessId };
}

/** Console errors and warnings (a hydration mismatch is one), and the list requests the page makes. */
function watch(page: Page) {
  const problems: string[] = [];
  const listRequests: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(err.message));
  page.on('request', (req) => {
    if (/comments\.(byBusiness|feed)|business\.directoryPage/.test(req.url())) listRequests.push(req.url());
  });
  return { problems, listRequests };
}

test.describe('first reviews, feed and directory in the first HTML (issue 29.7)', () => {
  test('are readable with JavaScript turned off', async ({ browser, baseURL }) => {
    const { id, businessId } = await newestComment(baseURL);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();

    await page.goto(`/business/${businessId}`);
    await expect(page.locator(`#comments article#comment-${id}`)).toBeVisible();

    await page.goto('/');
    await expect(page.locator(`main a[href="/comment/${id}"]`)).toBeVisible();

    await page.goto('/business');
    const cards = page.getByRole('list', { name: 'Butiker' }).getByRole('listitem');
    await expect(cards.first()).toBeVisible();
    expect(await cards.count()).toBeGreaterThan(3);
    await context.close();
  });

  test('the business page hydrates its served reviews without asking for them again', async ({ page, baseURL }) => {
    const { id, businessId } = await newestComment(baseURL);
    const { problems, listRequests } = watch(page);
    await page.addInitScript(() => {
      const w = window as unknown as { servedCard?: Element | null };
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive') w.servedCard = document.querySelector('#comments article[id^="comment-"]');
      });
    });
    await page.goto(`/business/${businessId}`);
    // The section's controls are enabled once the app has taken it over.
    await expect(page.getByRole('searchbox', { name: 'Sök bland kommentarerna' })).toBeEnabled();
    await expect(page.locator(`#comment-${id}`)).toBeVisible();
    const same = await page.evaluate(() => {
      const w = window as unknown as { servedCard?: Element | null };
      return Boolean(w.servedCard) && w.servedCard === document.querySelector('#comments article[id^="comment-"]');
    });
    expect(same).toBe(true);
    expect(listRequests).toEqual([]);
    expect(problems).toEqual([]);
    await expectAccessible(page, 'business page with served reviews');
  });

  test('home and the directory hydrate their served cards without asking for them again', async ({ page, baseURL }) => {
    const { id } = await newestComment(baseURL);
    const { problems, listRequests } = watch(page);
    // What the served HTML holds before any script has run: its first card and whether its first control is disabled.
    const pages = { '/': ['main a[href^="/comment/"]', 'main input[type="radio"]'], '/business': ['main li a[href^="/business/"]', '#business-search'] };
    await page.addInitScript((selectors: Record<string, string[]>) => {
      const w = window as unknown as { served?: { card: Element | null; disabled?: boolean } };
      document.addEventListener('readystatechange', () => {
        const [card, control] = selectors[location.pathname] ?? [];
        if (document.readyState !== 'interactive' || !card || !control) return;
        w.served = { card: document.querySelector(card), disabled: document.querySelector<HTMLInputElement>(control)?.disabled };
      });
    }, pages);
    const hydrated = (card: string) =>
      page.evaluate((selector) => {
        const w = window as unknown as { served?: { card: Element | null; disabled?: boolean } };
        return { same: Boolean(w.served?.card) && w.served?.card === document.querySelector(selector), disabled: w.served?.disabled };
      }, card);

    await page.goto('/');
    // The feed's filters wait for the app, and are live once it has taken over the served page.
    await expect(page.getByRole('radio', { name: 'MEST BESVARAD' })).toBeEnabled();
    await expect(page.locator(`main a[href="/comment/${id}"]`)).toBeVisible();
    // Hydrated, not painted anew: the served card is the one on screen.
    expect(await hydrated(pages['/'][0])).toEqual({ same: true, disabled: true });

    await page.goto('/business');
    await expect(page.getByRole('searchbox', { name: 'Sök på namn, kategori, ort eller beskrivning' })).toBeEnabled();
    await expect(page.getByRole('list', { name: 'Butiker' }).getByRole('listitem').first()).toBeVisible();
    expect(await hydrated(pages['/business'][0])).toEqual({ same: true, disabled: true });
    await expect(page.getByRole('button', { name: /^Favorit: / }).first()).toBeEnabled();
    expect(listRequests).toEqual([]);
    expect(problems).toEqual([]);
    await expectAccessible(page, 'directory hydrated from its served cards');
  });

  test('a signed-in visitor gets the served reviews, then their own form, without a hydration error', async ({ page, baseURL }) => {
    const { id, businessId } = await newestComment(baseURL);
    await page.goto('/login');
    await page.getByLabel('E-post').fill('johanna@demo.recensera.se');
    await page.getByLabel('Lösenord', { exact: true }).fill(demoPassword());
    await page.getByRole('button', { name: 'Logga in', exact: true }).click();
    await expect(page).toHaveURL(/\/user$/);
    const { problems } = watch(page);

    await page.goto(`/business/${businessId}`);
    await expect(page.locator(`#comment-${id}`)).toBeVisible();
    await expect(page.locator('#comments').getByRole('button', { name: 'Publicera' })).toBeVisible();
    // Home hydrates the anonymous render, then shows the member's own header.
    await page.goto('/');
    await expect(page.locator(`main a[href="/comment/${id}"]`)).toBeVisible();
    await expect(page.getByRole('radio', { name: 'MEST BESVARAD' })).toBeEnabled();
    await expect(page.getByRole('banner').getByRole('link', { name: /^Din profil, Johanna/ })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Skapa ett gratis konto' })).toHaveCount(0);
    await page.goto('/business');
    await expect(page.getByRole('list', { name: 'Butiker' }).getByRole('listitem').first()).toBeVisible();
    expect(problems).toEqual([]);
  });
});
