import { demoPassword, expect, expectAccessible, test } from './fixtures';

type Card = { _id: string; text: string; firstName: string; replyCount: number };

/** A comment of the demo data: the newest one by `firstName`, or the newest one. */
async function aComment(baseURL: string | undefined, firstName?: string): Promise<Card> {
  const res = await fetch(`${baseURL}/trpc/comments.feed?input=${encodeURIComponent(JSON.stringify({ filter: 'all' }))}`);
  const body = (await res.json()) as { result: { data: { items: Card[] } } };
  const comment = body.result.data.items.find((c) => !firstName || c.firstName === firstName);
  if (!comment) throw new Error('no such comment in the demo data');
  return comment;
}

/** Console errors and warnings (a hydration mismatch is one). */
function problemsOf(page: import('@playwright/test').Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(err.message));
  return problems;
}

test.describe('comment page first paint', () => {
  test('the server sends the comment itself, readable without scripts', async ({ browser, baseURL }) => {
    const comment = await aComment(baseURL);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/comment/${comment._id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Kommentar' })).toBeVisible();
    await expect(page.getByText(comment.text)).toBeVisible();
    await context.close();
  });

  test('the app takes over the served comment without repainting it or asking again', async ({ page, baseURL }) => {
    const comment = await aComment(baseURL);
    const problems = problemsOf(page);
    const byIdRequests: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('comments.byId')) byIdRequests.push(req.url());
    });
    await page.addInitScript(() => {
      const w = window as unknown as { servedCard?: Element | null };
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive') w.servedCard = document.querySelector('article');
      });
    });
    // The browser's clock a day behind the server's: the served "… ago" differs from what the
    // browser would write, which must not break the hydration (the browser writes its own after).
    await page.clock.setFixedTime(Date.now() - 24 * 3600_000);
    await page.goto(`/comment/${comment._id}`);
    // The app is running once an emoji answers (a visitor is asked to log in); the served one does nothing.
    await expect(async () => {
      await page.getByRole('radiogroup', { name: 'Reagera med en emoji' }).first().getByRole('radio').first().click();
      // A press that did nothing is pressed again: its notices may pile up.
      await expect(page.getByText('Logga in för att reagera.').first()).toBeVisible({ timeout: 1000 });
    }).toPass();
    const same = await page.evaluate(() => {
      const w = window as unknown as { servedCard?: Element | null };
      return Boolean(w.servedCard) && w.servedCard === document.querySelector('article');
    });
    expect(same).toBe(true);
    const served = await (await fetch(`${baseURL}/comment/${comment._id}`)).text();
    const servedWhen = /<time[^>]*>([^<]+)<\/time>/.exec(served)?.[1];
    expect(servedWhen).toBeTruthy();
    await expect(page.locator('article time').first()).not.toHaveText(servedWhen!);
    expect(byIdRequests).toEqual([]);
    expect(problems).toEqual([]);
    await expectAccessible(page, 'comment page after hydration');
  });

  test("its author's own buttons replace the served anonymous view", async ({ page, baseURL }) => {
    const comment = await aComment(baseURL, 'Johanna');
    const problems = problemsOf(page);
    await page.goto('/login');
    await page.getByLabel('E-post').fill('johanna@demo.recensera.se');
    await page.getByLabel('Lösenord', { exact: true }).fill(demoPassword());
    await page.getByRole('button', { name: 'Logga in', exact: true }).click();
    await expect(page).toHaveURL(/\/user$/);

    await page.goto(`/comment/${comment._id}`);
    // The comment's own button comes first; she may also have replied in its thread (a second one).
    await expect(page.getByRole('button', { name: 'Redigera' }).first()).toBeVisible();
    await expect(page.getByText(comment.text)).toBeVisible();
    expect(problems).toEqual([]);
  });
});
