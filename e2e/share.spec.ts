import { expect, expectAccessible, test } from './fixtures';

/** A business of the demo data (not the suggestion box). */
async function aBusiness(baseURL: string | undefined): Promise<{ id: string; title: string }> {
  const res = await fetch(`${baseURL}/trpc/business.directory`);
  const body = (await res.json()) as { result: { data: { id: string; title: string; isSuggestionBox: boolean }[] } };
  const business = body.result.data.find((b) => !b.isSuggestionBox);
  if (!business) throw new Error('no business in the demo data');
  return business;
}

/** The newest comment of the demo data. */
async function aComment(baseURL: string | undefined): Promise<{ _id: string; firstName: string; lastName: string }> {
  const res = await fetch(`${baseURL}/trpc/comments.feed?input=${encodeURIComponent(JSON.stringify({ filter: 'all' }))}`);
  const body = (await res.json()) as { result: { data: { items: { _id: string; firstName: string; lastName: string }[] } } };
  const comment = body.result.data.items[0];
  if (!comment) throw new Error('no comment in the demo data');
  return comment;
}

test.describe('sharing', () => {
  test.beforeEach(async ({ context, baseURL }) => {
    // Desktop Chromium on Linux has no share sheet; make sure of it, so the copy fallback runs.
    await context.addInitScript(() => {
      delete (Navigator.prototype as { share?: unknown }).share;
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  });

  test('a business link is copied with its language, with a notice; ?lang=en switches the page to English', async ({ page, baseURL }) => {
    const { id, title } = await aBusiness(baseURL);
    await page.goto(`/business/${id}`);
    await expect(page).toHaveTitle(await swedishTitle(baseURL, id, title));
    const share = page.getByRole('button', { name: `Dela ${title}` });
    await expect(share).toBeEnabled();
    await share.click();
    await expect(page.getByText('Länken har kopierats')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/business/${id}?lang=sv`);
    await expectAccessible(page, 'business page with the share notice');

    // The English link opens the page in English, and English stays the visitor's language.
    await page.goto(`/business/${id}?lang=en`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('link', { name: 'Go Back' })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} – reviews and ratings`));
    await page.getByRole('button', { name: `Share ${title}` }).click();
    await expect(page.getByText('Link copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/business/${id}?lang=en`);
    await page.goto('/about');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test('a comment is shared by the Web Share API where the device has one', async ({ page, baseURL }) => {
    const comment = await aComment(baseURL);
    const author = `${comment.firstName} ${comment.lastName}`.trim();
    await page.addInitScript(() => {
      (window as unknown as { shared: unknown[] }).shared = [];
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: (data: unknown) => {
          (window as unknown as { shared: unknown[] }).shared.push(data);
          return Promise.resolve();
        },
      });
    });
    await page.goto(`/comment/${comment._id}`);
    await expect(page).toHaveTitle(new RegExp(`^${author} om .+ \\| Recensera$`));
    await page.getByRole('button', { name: `Dela kommentaren av ${author}` }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shared: { url: string }[] }).shared))
      .toEqual([expect.objectContaining({ url: `${baseURL}/comment/${comment._id}?lang=sv` })]);
    // The share sheet said what happened; no notice of our own.
    await expect(page.getByText('Länken har kopierats')).toHaveCount(0);
  });

  test('a comment link is copied when there is no share sheet', async ({ page, baseURL }) => {
    const comment = await aComment(baseURL);
    const author = `${comment.firstName} ${comment.lastName}`.trim();
    await page.goto(`/comment/${comment._id}?lang=en`);
    await page.getByRole('button', { name: `Share the comment by ${author}` }).click();
    await expect(page.getByText('Link copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/comment/${comment._id}?lang=en`);
  });
});

/** "Åhléns – omdömen och betyg från 124 kunder | Recensera", from the business's own count. */
async function swedishTitle(baseURL: string | undefined, id: string, title: string): Promise<string> {
  const res = await fetch(`${baseURL}/trpc/business.byId?input=${encodeURIComponent(JSON.stringify({ id }))}`);
  const { ratingCount: n } = ((await res.json()) as { result: { data: { ratingCount: number } } }).result.data;
  const from = n === 0 ? '' : ` från ${n.toLocaleString('sv-SE')} ${n === 1 ? 'kund' : 'kunder'}`;
  return `${title} – omdömen och betyg${from} | Recensera`;
}
