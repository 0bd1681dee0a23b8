import { demoPassword, expect, expectAccessible, test } from './fixtures';

/** A business of the demo data: the first card of the directory. */
async function firstBusiness(baseURL: string | undefined): Promise<{ id: string; title: string }> {
  const res = await fetch(`${baseURL}/trpc/business.directory`);
  const body = (await res.json()) as { result: { data: { id: string; title: string; isSuggestionBox: boolean }[] } };
  const business = body.result.data.find((b) => !b.isSuggestionBox);
  if (!business) throw new Error('no business in the demo data');
  return business;
}

test.describe('business page first paint', () => {
  test('the server sends the business itself, readable without scripts', async ({ browser, baseURL }) => {
    const { id, title } = await firstBusiness(baseURL);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/business/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Betyg', exact: true }).getByText(/^\d,\d av 5 · \d+ betyg( · \d+ recension(er)?)?$/)).toBeVisible();
    await context.close();

    const english = await browser.newContext({ javaScriptEnabled: false });
    await english.addCookies([{ name: 'lang', value: 'en', url: baseURL! }]);
    const englishPage = await english.newPage();
    await englishPage.goto(`/business/${id}`);
    await expect(englishPage.locator('html')).toHaveAttribute('lang', 'en');
    await expect(englishPage.getByRole('link', { name: 'Go Back' })).toBeVisible();
    await expect(englishPage.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await english.close();
  });

  test('the app takes over the served elements without repainting them or asking again', async ({ page, baseURL }) => {
    const { id, title } = await firstBusiness(baseURL);
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));
    const byIdRequests: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('business.byId')) byIdRequests.push(req.url());
    });
    // The heading and every element of the served page, as the HTML parser made them.
    await page.addInitScript(() => {
      const w = window as unknown as { servedHeading?: Element | null; served?: WeakSet<Element>; preloadsAdded?: number };
      // Links the app's scripts add: none, since each cost ~3 ms of main thread under a 4× CPU
      // throttle while the page started (docs/decisions/021, "No modulepreload links from the entry").
      w.preloadsAdded = 0;
      new MutationObserver((records) => {
        for (const r of records)
          for (const n of r.addedNodes)
            if (n instanceof HTMLLinkElement && n.rel === 'modulepreload' && document.readyState !== 'loading') w.preloadsAdded! += 1;
      }).observe(document, { childList: true, subtree: true });
      document.addEventListener('readystatechange', () => {
        if (document.readyState !== 'interactive') return;
        w.servedHeading = document.querySelector('h1');
        w.served = new WeakSet(document.querySelectorAll('#root *'));
      });
    });
    await page.goto(`/business/${id}`);
    // The app is running once the heart answers (a visitor is asked to log in).
    await page.getByRole('button', { name: `Favorit: ${title}` }).click();
    await expect(page.getByText('Logga in för att ändra favoritstatus')).toBeVisible();
    const takenOver = await page.evaluate(
      () =>
        new Promise<{ sameHeading: boolean; lcpServed: boolean[] }>((resolve) => {
          const w = window as unknown as { servedHeading?: Element | null; served?: WeakSet<Element> };
          new PerformanceObserver((list) => {
            const entries = list.getEntries() as (PerformanceEntry & { element: Element | null })[];
            resolve({
              sameHeading: Boolean(w.servedHeading) && w.servedHeading === document.querySelector('h1'),
              // Largest paints so far: each must be an element the server sent, still in the page.
              lcpServed: entries.map((e) => Boolean(e.element && w.served?.has(e.element) && e.element.isConnected)),
            });
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
    expect(takenOver.sameHeading).toBe(true);
    expect(takenOver.lcpServed.length).toBeGreaterThan(0);
    expect(takenOver.lcpServed.every(Boolean)).toBe(true);
    expect(byIdRequests).toEqual([]);
    expect(problems).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { preloadsAdded: number }).preloadsAdded)).toBe(0);
    await expectAccessible(page, 'business page after hydration');
  });

  test("a signed-in visitor's own heart and rating replace the served anonymous view", async ({ page, baseURL }) => {
    const { id, title } = await firstBusiness(baseURL);
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));
    await page.goto('/login');
    await page.getByLabel('E-post').fill('johanna@demo.recensera.se');
    await page.getByLabel('Lösenord', { exact: true }).fill(demoPassword());
    await page.getByRole('button', { name: 'Logga in', exact: true }).click();
    await expect(page).toHaveURL(/\/user$/);

    await page.goto(`/business/${id}`);
    const heart = page.getByRole('button', { name: `Favorit: ${title}` });
    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('radiogroup', { name: 'Ditt betyg' }).getByRole('radio', { name: '3 stjärnor' }).click();
    await page.getByRole('button', { name: 'Betygsätt' }).click();
    await expect(page.getByRole('button', { name: 'Betyg skickat' })).toBeDisabled();

    await page.reload();
    await expect(page.getByRole('button', { name: `Favorit: ${title}` })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('radiogroup', { name: 'Ditt betyg' }).getByRole('radio', { name: '3 stjärnor' })).toBeChecked();
    await expect(page.getByRole('button', { name: 'Betyg skickat' })).toBeDisabled();
    expect(problems).toEqual([]);
  });

  test('an unknown business is the not-found page, answered 404', async ({ page }) => {
    const res = await page.goto('/business/no-such-business');
    expect(res?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Sidan hittades inte' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Till startsidan' })).toBeVisible();
    await expect(page.getByText(/Status: 404/)).toHaveCount(0);
  });
});
