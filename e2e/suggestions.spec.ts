import type { Browser, BrowserContext, Page } from '@playwright/test';
import { demoPassword, expect, expectAccessible, newContext, test } from './fixtures';

/**
 * Residents add places and everyone finds them (issue 31, items 4 and 5): a member suggests a
 * pizzeria (the form points out a similar business as the name is typed), a moderator approves
 * it, a visitor finds it by "pizza", by its town and by its name typed without å/ä/ö; a rejected
 * suggestion's reason reaches its member. Swedish and English, desktop and phone, axe-clean.
 */

/** A browser of its own (own cookies) in `lang`, signed in as `email` when given. */
async function browse(browser: Browser, baseURL: string, headers: Record<string, string>, lang: 'sv' | 'en', email?: string) {
  const context = await newContext(browser, { baseURL, extraHTTPHeaders: headers });
  await context.addCookies([{ name: 'lang', value: lang, url: baseURL }]);
  let token = '';
  if (email) {
    const res = await context.request.post('/api/users/logIn', { data: { email, password: demoPassword() } });
    expect(res.ok(), `log in ${email}`).toBe(true);
    token = ((await res.json()) as { token: string }).token;
  }
  return { context, token, page: await context.newPage() };
}

/** Axe at desktop and phone width. */
async function check(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await expectAccessible(page, `${name} at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a member suggests a pizzeria, a moderator approves it, a visitor finds it', async ({ browser, baseURL, extraHTTPHeaders }) => {
  test.setTimeout(240_000);
  const headers = extraHTTPHeaders ?? {};
  const contexts: BrowserContext[] = [];
  try {
    // Sara works the queue: an admin appoints her moderator (the appointing is accounts' journey).
    const admin = await browse(browser, baseURL!, headers, 'sv', 'admin@demo.recensera.se');
    contexts.push(admin.context);
    const users = (await (await admin.context.request.get('/api/users', { headers: { authorization: `Bearer ${admin.token}` } })).json()) as Array<{
      _id: string;
      email: string;
    }>;
    const saraId = users.find((u) => u.email === 'sara@demo.recensera.se')!._id;
    const appointed = await admin.context.request.put(`/api/users/update/${saraId}`, {
      headers: { authorization: `Bearer ${admin.token}` },
      data: { isModerator: true },
    });
    expect(appointed.ok(), await appointed.text()).toBe(true);

    // Erik (Swedish) comes from the nav's "Add New" (the suggestion box) to the form.
    const erik = await browse(browser, baseURL!, headers, 'sv', 'erik@demo.recensera.se');
    contexts.push(erik.context);
    const p = erik.page;
    await p.goto('/');
    await p.getByRole('link', { name: 'Lägg till ny' }).first().click();
    await p.getByRole('link', { name: 'Saknas ett ställe? Föreslå det här' }).click();
    await expect(p).toHaveURL(/\/suggest$/);
    await expect(p.getByRole('heading', { name: 'Föreslå ett ställe', level: 1 })).toBeVisible();

    // A name like one in the directory is pointed out before sending (folded: hemkop → Hemköp).
    const name = p.getByRole('textbox', { name: 'Namn' });
    await name.fill('hemkop');
    const similar = p.getByRole('region', { name: 'Finns det redan?' });
    await expect(similar.getByRole('link', { name: 'Hemköp' })).toBeVisible();
    await check(p, 'suggest form with a similar business');

    await name.fill('Söders Pizzeria');
    await expect(similar).toHaveCount(0);
    await p.getByRole('textbox', { name: 'Kategori' }).fill('Pizza');
    await p.getByRole('textbox', { name: 'Gatuadress' }).fill('Stortorget 3');
    await p.getByRole('textbox', { name: 'Ort' }).fill('Ystad');
    await p.getByRole('textbox', { name: 'Webbplats (frivilligt)' }).fill('https://soders-pizzeria.se');
    await p.getByRole('button', { name: 'Skicka förslag' }).click();
    await expect(p.getByText('Tack! En moderator tittar på ditt förslag.')).toBeVisible();
    const mine = p.getByRole('region', { name: 'Dina förslag' });
    await expect(mine.getByText('Söders Pizzeria')).toBeVisible();
    await expect(mine.getByText('Väntar på en moderator')).toBeVisible();
    await check(p, 'suggest form after sending');

    // A second suggestion, sent through the API, is the one Sara rejects.
    const second = await erik.context.request.post('/api/business/suggestions', {
      headers: { authorization: `Bearer ${erik.token}` },
      data: { title: 'Hemköp Ystad', category: 'Livsmedel', location: 'Ystad', address: 'Hamngatan 1' },
    });
    expect(second.status(), await second.text()).toBe(201);

    // Sara (English) works the queue.
    const sara = await browse(browser, baseURL!, headers, 'en', 'sara@demo.recensera.se');
    contexts.push(sara.context);
    const q = sara.page;
    await q.goto('/suggestions');
    await expect(q.getByRole('heading', { name: 'Suggested places', level: 1 })).toBeVisible();
    const pizzeria = q.getByRole('listitem').filter({ has: q.getByRole('heading', { name: 'Söders Pizzeria' }) });
    const duplicate = q.getByRole('listitem').filter({ has: q.getByRole('heading', { name: 'Hemköp Ystad' }) });
    await expect(pizzeria).toBeVisible();
    await check(q, 'suggestion queue');
    await duplicate.getByRole('textbox', { name: 'Reason (shown to the member)' }).fill('Hemköp is listed already; add the branch there.');
    await duplicate.getByRole('button', { name: 'Reject' }).click();
    await expect(q.getByText('The suggestion was rejected.')).toBeVisible();
    await pizzeria.getByRole('button', { name: 'Approve' }).click();
    await expect(q.getByText('The business was added.')).toBeVisible();
    await expect(pizzeria).toHaveCount(0);

    // Erik sees both decisions, the reason with the rejected one.
    await p.reload();
    // Other journeys may have had Erik's earlier suggestions approved: this one is Söders Pizzeria.
    await expect(mine.getByRole('listitem').filter({ hasText: 'Söders Pizzeria' }).getByText('Tillagt')).toBeVisible();
    await expect(mine.getByText('Skäl: Hemköp is listed already; add the branch there.')).toBeVisible();

    // A visitor (Swedish) finds the pizzeria by what, where and its name without ö.
    const visitor = await browse(browser, baseURL!, headers, 'sv');
    contexts.push(visitor.context);
    const v = visitor.page;
    await v.goto('/business');
    const search = v.getByRole('searchbox', { name: 'Sök på namn, kategori, ort eller beskrivning' });
    const cards = v.getByRole('list', { name: 'Butiker' }).getByRole('listitem');
    for (const typed of ['pizza', 'ystad', 'soders pizzeria']) {
      await search.fill(typed);
      // The shared test machine can be slow to render a search's answer; the wait is for the answer, not a sleep.
      await expect(cards.getByRole('heading', { name: 'Söders Pizzeria' })).toBeVisible({ timeout: 30_000 });
    }
    await search.fill('ahlens');
    await expect(cards.getByRole('heading', { name: 'ÅHLÉNS' })).toBeVisible({ timeout: 30_000 });
    await search.fill('soders pizzeria');
    await check(v, 'directory search by a folded name');
    await cards.getByRole('heading', { name: 'Söders Pizzeria' }).click();
    await expect(v.getByRole('heading', { name: 'Söders Pizzeria', level: 1 })).toBeVisible();
    await expect(v.getByRole('link', { name: /^Föreslaget av Erik/ })).toBeVisible();
    await check(v, 'approved business page');

    // In English, a search without a match says so and shows no list.
    const english = await browse(browser, baseURL!, headers, 'en');
    contexts.push(english.context);
    const e = english.page;
    await e.goto('/business');
    await e.getByRole('searchbox', { name: 'Search by name, category, town or description' }).fill('xyzzy');
    await expect(e.getByText('Nothing found on your search')).toBeVisible({ timeout: 30_000 });
    await expect(e.getByRole('list', { name: 'Stores' })).toHaveCount(0);
    await check(e, 'directory search without a match');
  } finally {
    for (const context of contexts) await context.close();
  }
});
