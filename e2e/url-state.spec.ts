import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';

/**
 * The feed filter and the searches live in the query string (client/lib/url-state.ts): a
 * reload, Back from another page and a shared link show the list as it was, scrolled where it
 * was, and setting them adds no history entry.
 */

const feedOf = (page: Page) => page.getByRole('region', { name: /Utforska kommentarerna med högst betyg/ });
const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));
const historyLength = (page: Page) => page.evaluate(() => history.length);

/** Scrolls `y` down and waits until the position is the page's own (kept on the next frame). */
async function scrollTo(page: Page, y: number) {
  await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
  await expect.poll(() => scrollY(page)).toBe(y);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

test.describe('state in the address', () => {
  test('the feed filter survives a reload and Back from a business, at the same scroll position', async ({ page }) => {
    await page.goto('/');
    const feed = feedOf(page);
    // The served feed is hydrated when the app takes over (its filter is enabled then).
    await expect(feed.getByRole('radio', { name: 'Alla kommentarer' })).toBeEnabled();
    await expect(feed.getByRole('radio', { name: 'Alla kommentarer' })).toBeChecked();
    const entries = await historyLength(page);
    await feed.getByText('HÖGST BETYG', { exact: true }).click();
    await expect(page).toHaveURL(/\/\?filter=topRated$/);
    await expect(feed.getByRole('list', { name: 'HÖGST BETYG' }).getByRole('listitem')).not.toHaveCount(0);
    // A view of the same page: Back still leaves it.
    expect(await historyLength(page)).toBe(entries);

    await page.reload();
    await expect(feedOf(page).getByRole('radio', { name: 'HÖGST BETYG' })).toBeEnabled();
    await expect(feedOf(page).getByRole('radio', { name: 'HÖGST BETYG' })).toBeChecked();
    const cards = feedOf(page).getByRole('list', { name: 'HÖGST BETYG' }).getByRole('listitem');
    await expect(cards).not.toHaveCount(0);

    // Down to the last card, over to its business, and Back.
    const last = cards.last();
    await last.scrollIntoViewIfNeeded();
    const top = (await scrollY(page)) + 40;
    await scrollTo(page, top);
    await last.getByRole('heading').getByRole('link').click();
    await expect(page).toHaveURL(/\/business\/[^?]+#comment-/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/\?filter=topRated$/);
    await expect(feedOf(page).getByRole('radio', { name: 'HÖGST BETYG' })).toBeChecked();
    await expect.poll(() => scrollY(page)).toBe(top);

    // The first filter again: the default is not written.
    await feedOf(page).getByText('Alla kommentarer', { exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a shared link opens the feed with its filter, and the directory with its search painted first', async ({ page, request }) => {
    await page.goto('/?filter=mostReplied');
    await expect(feedOf(page).getByRole('radio', { name: 'MEST BESVARAD' })).toBeChecked();
    await expect(feedOf(page).getByRole('list', { name: 'MEST BESVARAD' })).toBeVisible();

    // Before any script runs, the server's first paint already shows the search (inert until then).
    const html = await (await request.get('/business?q=apotek')).text();
    expect(html).toMatch(/<input[^>]*disabled[^>]*value="apotek"/);
    const home = await (await request.get('/?filter=mostReplied')).text();
    expect(home).toMatch(/data-state="checked"[^>]*>[^<]*<span[^>]*>MEST BESVARAD</);
  });

  test('the directory search survives typing, a reload and Back from a business, scrolled as it was', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 640 });
    await page.goto('/business');
    const search = page.getByRole('searchbox', { name: 'Sök på namn, kategori, ort eller beskrivning' });
    const list = page.getByRole('list', { name: 'Butiker' });
    await expect(list.getByRole('listitem').first()).toBeVisible();
    // The served cards show before the app runs; the box takes letters once it has taken over.
    await expect(search).toBeEnabled();
    const entries = await historyLength(page);
    await search.pressSequentially('apotek', { delay: 30 });
    await expect(page).toHaveURL(/\/business\?q=apotek$/);
    await expect(list.getByRole('listitem')).toHaveCount(3);
    expect(await historyLength(page)).toBe(entries);

    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Sök på namn, kategori, ort eller beskrivning' })).toHaveValue('apotek');
    await expect(list.getByRole('listitem')).toHaveCount(3);

    const third = list.getByRole('listitem').nth(2);
    await third.scrollIntoViewIfNeeded();
    const top = await scrollY(page);
    expect(top).toBeGreaterThan(100);
    await scrollTo(page, top);
    await third.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/business\/[^?]+$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/business\?q=apotek$/);
    await expect(search).toHaveValue('apotek');
    await expect(list.getByRole('listitem')).toHaveCount(3);
    await expect.poll(() => scrollY(page)).toBe(top);

    // The nav link to the directory opens it without the search.
    await search.fill('');
    await expect(page).toHaveURL(/\/business$/);
    await expect(list.getByRole('listitem')).not.toHaveCount(3);
  });

  for (const width of [1280, 375]) {
    test(`the directory's category, city and sort live in the address and survive Back (${width} px)`, async ({ page, request }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/business');
      const list = page.getByRole('list', { name: 'Butiker' });
      // textContent, which does not depend on layout.
      const titles = async () => (await list.getByRole('heading').allTextContents()).map((t) => t.trim());
      await expect(list.getByRole('listitem').first()).toBeVisible();
      const entries = await historyLength(page);

      await page.getByRole('radio', { name: 'Apotek' }).click({ force: true });
      await expect(page).toHaveURL(/\/business\?category=Apotek$/);
      await page.getByRole('combobox', { name: 'Sortera' }).click();
      await page.getByRole('option', { name: 'Högst betyg' }).click();
      await expect(page).toHaveURL(/\/business\?category=Apotek&sort=rating$/);
      expect(await historyLength(page)).toBe(entries);
      // The same order the REST door gives for the same question.
      const rest = (await (await request.get('/api/business?category=Apotek&sort=rating')).json()) as { title: string }[];
      await expect.poll(titles).toEqual(rest.map((b) => b.title));

      // The tooltip says why one 5-star rating does not win; axe-clean with it open.
      const info = page.getByRole('button', { name: 'Så sorteras efter betyg' });
      await info.click();
      await expect(page.getByText('Ett enda betyg på 5 stjärnor hamnar därför inte före hundra betyg på 4,8.')).toBeVisible();
      await expectAccessible(page, `directory filters, ${width} px`);
      await page.keyboard.press('Escape');

      await list.getByRole('listitem').first().getByRole('link').first().click();
      await expect(page).toHaveURL(/\/business\/[^?]+$/);
      await page.goBack();
      await expect(page).toHaveURL(/\/business\?category=Apotek&sort=rating$/);
      await expect(page.getByRole('radio', { name: 'Apotek' })).toBeChecked();
      await expect(page.getByRole('combobox', { name: 'Sortera' })).toHaveText(/Högst betyg/);
      await expect.poll(titles).toEqual(rest.map((b) => b.title));

      // A city: the businesses with a branch there, from the list of places.
      await page.getByRole('radio', { name: 'Alla' }).click({ force: true });
      await page.getByRole('combobox', { name: 'Ort', exact: true }).click();
      await page.getByRole('option', { name: /^Malmö \(/ }).click();
      await expect(page).toHaveURL(/\/business\?sort=rating&city=Malm%C3%B6$/);
      const inMalmo = (await (await request.get(`/api/business?sort=rating&city=${encodeURIComponent('Malmö')}`)).json()) as { title: string }[];
      await expect.poll(titles).toEqual(inMalmo.map((b) => b.title));
    });
  }

  test("a business page's comment search survives a reload and opens from a shared link", async ({ page, request }) => {
    const businesses = (await (await request.get('/api/business')).json()) as { _id: string; title: string }[];
    const biltema = businesses.find((b) => b.title === 'Biltema');
    expect(biltema).toBeDefined();
    await page.goto(`/business/${biltema!._id}`);
    const comments = page.locator('#comments');
    const listed = comments.getByRole('list', { name: 'Kommentarer' }).locator(':scope > li');
    const search = comments.getByRole('searchbox', { name: 'Sök bland kommentarerna' });
    await expect(listed).toHaveCount(2);
    await search.fill('torkarblad');
    await expect(page).toHaveURL(new RegExp(`/business/${biltema!._id}\\?q=torkarblad$`));
    await expect(listed).toHaveCount(1);

    await page.reload();
    await expect(comments.getByRole('searchbox', { name: 'Sök bland kommentarerna' })).toHaveValue('torkarblad');
    await expect(listed).toHaveCount(1);
    await expect(listed).toContainText('torkarblad');

    const shared = await page.context().newPage();
    await shared.goto(`/business/${biltema!._id}?q=${encodeURIComponent('Örebro')}`);
    await expect(shared.locator('#comments').getByRole('searchbox', { name: 'Sök bland kommentarerna' })).toHaveValue('Örebro');
    await expect(shared.locator('#comments').getByRole('list', { name: 'Kommentarer' }).locator(':scope > li')).toHaveCount(1);
  });
});
