import sharp from 'sharp';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { demoPassword, expect, expectAccessible, newContext, test } from './fixtures';

async function logIn(request: APIRequestContext, email: string) {
  const res = await request.post('/api/users/logIn', { data: { email, password: demoPassword() } });
  expect(res.ok(), `log in ${email}`).toBe(true);
}

/** Another browser (own cookies) signed in as `email`. */
async function signedIn(
  browser: Browser,
  baseURL: string,
  email: string,
  extraHTTPHeaders: Record<string, string>,
): Promise<{ context: BrowserContext; page: Page }> {
  // The test's own headers: its address for the server's per-IP limits (fixtures.ts).
  const context = await newContext(browser, { baseURL, extraHTTPHeaders });
  await logIn(context.request, email);
  return { context, page: await context.newPage() };
}

/** A real photo-sized picture, so the browser has something to shrink before the upload. */
async function photo(): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .composite([{ input: Buffer.from('<svg width="1600" height="1200"><circle cx="800" cy="600" r="400" fill="#0f5e4b"/></svg>'), top: 0, left: 0 }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

test('a comment with a photo, a reply, an emoji rating, the feed, edit, delete and moderation', async ({ page, browser, baseURL, extraHTTPHeaders }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const text = `Fantastiska kanelbullar och trevlig personal ${stamp}`;

  // A business from the demo data (not the suggestion box).
  const businesses = (await (await page.request.get('/api/business')).json()) as Array<{ _id: string; title: string; isSuggestionBox: boolean }>;
  const business = businesses.find((b) => !b.isSuggestionBox)!;

  // 1. Anna posts a comment with a photo: it appears first, photo shown.
  await logIn(page.request, 'anna@demo.recensera.se');
  await page.goto(`/business/${business._id}`);
  const section = page.getByRole('region', { name: 'Kommentarer' });
  await section.getByLabel('Din kommentar').fill(text);
  // A place that is none of the branches: "Annan plats…" and free text.
  await section.getByLabel('Butikens plats').click();
  await page.getByRole('option', { name: 'Annan plats…' }).click();
  await section.getByLabel('Annan plats', { exact: true }).fill('Västerås C');
  await section.locator('input[type="file"]').setInputFiles({ name: 'kanelbulle.jpg', mimeType: 'image/jpeg', buffer: await photo() });
  await expect(section.locator('form img[src^="/uploads/"]')).toBeVisible({ timeout: 20_000 });
  await section.getByRole('button', { name: 'Publicera' }).click();
  await expect(page.getByText('Tack! Din kommentar är publicerad.')).toBeVisible();
  const first = section.getByRole('article').first();
  await expect(first).toContainText(text);
  await expect(first.getByRole('heading', { name: /Västerås C/ })).toBeVisible();
  const picture = first.getByRole('img', { name: 'Foto till kommentaren' });
  await expect(picture).toBeVisible();
  await expect(picture).toHaveAttribute('src', /^\/uploads\/[0-9a-f]{64}\.webp$/);
  // The picture zooms with a click, and the button then offers the way back.
  await first.getByRole('button', { name: /Förstora bilden/ }).click();
  const unzoom = first.getByRole('button', { name: /Förminska bilden/ });
  await expect(unzoom).toBeVisible();
  await expect(first.getByRole('button', { name: /Förstora bilden/ })).toHaveCount(0);
  await unzoom.click();
  await expect(first.getByRole('button', { name: /Förstora bilden/ })).toBeVisible();
  const commentId = (await first.getAttribute('id'))!.replace('comment-', '');
  // The author cannot rate their own comment, and is told why.
  await expect(first.getByText('Du kan inte reagera på ditt eget inlägg.')).toBeVisible();
  await expect(first.getByRole('radio', { name: /^Förtjust/ })).toBeDisabled();
  await expectAccessible(page, 'business page with the new comment');

  // 2. Erik replies and rates it with an emoji.
  const erik = await signedIn(browser, baseURL!, 'erik@demo.recensera.se', extraHTTPHeaders!);
  await erik.page.goto(`/business/${business._id}`);
  const card = erik.page.locator(`#comment-${commentId}`);
  await card.getByRole('button', { name: 'Svara' }).click();
  await card.getByLabel('Ditt svar').fill('Håller med, bästa bullarna i stan!');
  await card.getByRole('button', { name: 'Skicka svar' }).click();
  await expect(erik.page.getByText('Ditt svar är publicerat.')).toBeVisible();
  await expect(card.getByText('1 svar', { exact: true })).toBeVisible();
  await expect(card.getByText('Håller med, bästa bullarna i stan!')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Dölj svar' })).toBeVisible();
  const delighted = card
    .getByRole('radiogroup', { name: 'Reagera med en emoji' })
    .first()
    .getByRole('radio', { name: /^Förtjust/ });
  await delighted.click();
  await expect(erik.page.getByText('Tack för din reaktion!')).toBeVisible();
  await expect(delighted).toBeChecked();
  await expect(delighted).toHaveAccessibleName(/^Förtjust, 5 av 5 \(1 har valt den\)/);
  await expect(card.getByText('Snitt 5,0 av 5 · 1 reaktion').first()).toBeVisible();
  await expectAccessible(erik.page, 'business page with a reply');

  // Two more replies (through the documented REST door) make it one of the most replied.
  for (const email of ['sara@demo.recensera.se', 'admin@demo.recensera.se']) {
    const other = await signedIn(browser, baseURL!, email, extraHTTPHeaders!);
    const res = await other.context.request.post(`/api/comment/addSubComment/${commentId}`, { multipart: { text: `Svar från ${email}` } });
    expect(res.status()).toBe(201);
    await other.context.close();
  }

  // 3. The feed shows it under All Comments (the default) and MOST REPLIED.
  await page.goto('/');
  const feed = page.getByRole('region', { name: /Utforska kommentarerna med högst betyg/ });
  // The card carries the whole short text; CSS cuts a long one to three lines (issue 30).
  const feedLink = feed.getByRole('link', { name: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} – `) });
  await expect(feed.getByRole('radio', { name: 'Alla kommentarer' })).toBeChecked();
  await expect(feedLink).toBeVisible();
  // The served feed's filters are enabled once the app has taken the page over.
  await expect(feed.getByRole('radio', { name: 'MEST BESVARAD' })).toBeEnabled();
  await feed.getByText('MEST BESVARAD', { exact: true }).click();
  await expect(feed.getByRole('radio', { name: 'MEST BESVARAD' })).toBeChecked();
  await expect(feedLink).toBeVisible();
  await expect(feed.getByRole('button', { name: 'Visa fler' })).toHaveCount(0);
  await expectAccessible(page, 'feed');

  // The card's link opens the business page scrolled to the comment.
  await feedLink.click();
  await expect(page).toHaveURL(new RegExp(`/business/${business._id}#comment-${commentId}$`));
  await expect(page.locator(`#comment-${commentId}`)).toBeInViewport();

  // 4. An admin removes a reply and another comment at /cmt-mng.
  const sara = await signedIn(browser, baseURL!, 'sara@demo.recensera.se', extraHTTPHeaders!);
  const target = await sara.context.request.post(`/api/comment/create/${business._id}`, {
    multipart: { text: `Kommentar att moderera ${stamp}`, businessLocation: 'Lund' },
  });
  expect(target.status()).toBe(201);
  await sara.context.close();

  const admin = await signedIn(browser, baseURL!, 'admin@demo.recensera.se', extraHTTPHeaders!);
  await admin.page.goto('/cmt-mng');
  const table = admin.page.getByRole('table');
  const ours = table.locator('tbody', { hasText: text });
  await expect(ours.getByRole('row')).toHaveCount(4);
  await ours.getByRole('button', { name: 'ta bort svar' }).first().click();
  const dialog = admin.page.getByRole('alertdialog', { name: 'Ta bort svaret?' });
  await expectAccessible(admin.page, 'moderation confirm dialog');
  await dialog.getByRole('button', { name: 'Ta bort' }).click();
  await expect(admin.page.getByText('Svaret togs bort!')).toBeVisible();
  await expect(ours.getByRole('row')).toHaveCount(3);

  const moderated = table.locator('tbody', { hasText: `Kommentar att moderera ${stamp}` });
  await moderated.getByRole('button', { name: 'ta bort kommentar' }).click();
  await admin.page.getByRole('alertdialog', { name: 'Ta bort kommentaren?' }).getByRole('button', { name: 'Ta bort' }).click();
  await expect(admin.page.getByText('Kommentaren togs bort!')).toBeVisible();
  await expect(moderated).toHaveCount(0);
  await expectAccessible(admin.page, 'moderation');
  await admin.context.close();

  // 5. The owner edits the comment, then deletes it.
  await page.goto(`/business/${business._id}`);
  const mine = page.locator(`#comment-${commentId}`);
  await expect(mine.getByText('2 svar', { exact: true })).toBeVisible();
  await mine.getByRole('button', { name: 'Redigera' }).click();
  await mine.getByLabel('Din kommentar').fill(`${text} (uppdaterad)`);
  await mine.getByRole('button', { name: 'Spara' }).click();
  await expect(page.getByText('Ändringen är sparad.')).toBeVisible();
  await expect(mine.getByText(`${text} (uppdaterad)`)).toBeVisible();
  await expect(mine.getByText('redigerad')).toBeVisible();

  await mine.getByRole('button', { name: 'Ta bort', exact: true }).click();
  await page.getByRole('alertdialog', { name: 'Ta bort kommentaren?' }).getByRole('button', { name: 'Ta bort' }).click();
  await expect(page.getByText('Din kommentar togs bort')).toBeVisible();
  await expect(mine).toHaveCount(0, { timeout: 5000 });
  const gone = await page.request.get(`/api/comment/${business._id}`);
  expect(((await gone.json()) as Array<{ _id: string }>).some((c) => c._id === commentId)).toBe(false);

  await erik.context.close();
});

test('visitors read comments and are asked to log in to take part', async ({ page, baseURL }) => {
  const list = (await (await page.request.get('/api/comment/most-subcomments')).json()) as Array<{ _id: string; businessId: string }>;
  const { _id: id, businessId } = list[0];
  await page.goto(`/business/${businessId}`);
  const section = page.getByRole('region', { name: 'Kommentarer' });
  // Every invitation to log in comes back to this page (and the part of it) afterwards.
  await expect(section.getByRole('link', { name: 'Logga in för att lämna en kommentar' })).toHaveAttribute(
    'href',
    `/login?next=${encodeURIComponent(`/business/${businessId}#comments`)}`,
  );
  const card = page.locator(`#comment-${id}`);
  await expect(card.getByRole('link', { name: 'Logga in för att skriva ett svar' })).toHaveAttribute(
    'href',
    `/login?next=${encodeURIComponent(`/business/${businessId}#comment-${id}`)}`,
  );
  // The exact time behind "för 3 dagar sedan", in words.
  await expect(card.locator('time').first()).toHaveAttribute(
    'title',
    /^\d{1,2} (januari|februari|mars|april|maj|juni|juli|augusti|september|oktober|november|december) \d{4} kl\. \d\d:\d\d$/,
  );
  const neutral = card.getByRole('radio', { name: /^Neutral/ }).first();
  await neutral.click();
  await expect(page.getByText('Logga in för att reagera.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Logga in', exact: true })).toBeVisible();
  await expect(neutral).not.toBeChecked();
  await card.getByRole('button', { name: 'Visa fler svar' }).click();
  await expect(card.getByRole('button', { name: 'Dölj svar' })).toBeVisible();
  await expect(card.getByRole('article').first()).toBeVisible();

  // The search: nothing found, then empty text shows everything again.
  const search = section.getByRole('searchbox', { name: 'Sök bland kommentarerna' });
  await search.fill('zzzqqq');
  await expect(section.getByText('Inget hittades för din sökning')).toBeVisible();
  await search.fill('');
  await expect(card).toBeVisible();

  // Reporting asks a visitor to log in too, and the notice's button comes back here.
  await card.getByRole('button', { name: 'Rapportera' }).first().click();
  await expect(page.getByText('Logga in för att rapportera ett inlägg.')).toBeVisible();
  await page.getByRole('button', { name: 'Logga in', exact: true }).last().click();
  await expect(page).toHaveURL(`/login?next=${encodeURIComponent(`/business/${businessId}`)}`);

  // English, by the language cookie.
  await page.context().addCookies([{ name: 'lang', value: 'en', url: baseURL! }]);
  await page.goto(`/comment/${id}`);
  await expect(page.getByRole('heading', { name: 'Comment', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hide Replies' })).toBeVisible();
  await expect(page.locator('time').first()).toHaveAttribute('title', /^\d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d$/);
  await expectAccessible(page, 'comment page in English');
});

test('"Logga in för att lämna en kommentar" brings the visitor back to the comments after logging in', async ({ page }) => {
  const list = (await (await page.request.get('/api/comment/most-subcomments')).json()) as Array<{ businessId: string }>;
  const { businessId } = list[0];
  await page.goto(`/business/${businessId}`);
  const section = page.getByRole('region', { name: 'Kommentarer' });
  // The served reviews are hydrated first (the section's search is enabled then).
  await expect(section.getByRole('searchbox', { name: 'Sök bland kommentarerna' })).toBeEnabled();
  await section.getByRole('link', { name: 'Logga in för att lämna en kommentar' }).click();
  await page.getByLabel('E-post').fill('erik@demo.recensera.se');
  await page.getByLabel('Lösenord', { exact: true }).fill(demoPassword());
  await page.getByRole('button', { name: 'Logga in', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/business/${businessId}#comments$`));
  await expect(section.getByLabel('Din kommentar')).toBeVisible();
  await expect(section).toBeInViewport();
});
