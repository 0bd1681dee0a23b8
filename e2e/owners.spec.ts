import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { demoPassword, expect, expectAccessible, linkIn, newContext, readMail, test } from './fixtures';

const PASSWORD = 'Agare-pass-123';

/** A fresh account, registered and confirmed from its mail. */
async function newAccount(request: APIRequestContext, firstName: string, lastName: string) {
  const email = `${firstName.toLowerCase()}.${Date.now()}@example.com`;
  const startedAt = Date.now();
  const reg = await request.post('/api/users/register', {
    multipart: { firstName, lastName, email, password: PASSWORD, confirmPassword: PASSWORD, language: 'sv' },
  });
  expect(reg.status()).toBe(201);
  const token = new URL(linkIn(await readMail(email, { after: startedAt - 1000 }), '/users/confirm-email')).searchParams.get('token');
  expect((await request.put(`/api/users/confirm-email?token=${token}`)).ok()).toBe(true);
  const login = await request.post('/api/users/logIn', { data: { email, password: PASSWORD } });
  return { email, bearer: { authorization: `Bearer ${(await login.json()).token}` } };
}

async function signedIn(browser: Browser, baseURL: string, email: string, password: string, headers: Record<string, string>, lang: 'sv' | 'en') {
  const context = await newContext(browser, { baseURL, extraHTTPHeaders: headers });
  await context.addCookies([{ name: 'lang', value: lang, url: baseURL }]);
  expect((await context.request.post('/api/users/logIn', { data: { email, password } })).ok()).toBe(true);
  return { context, page: await context.newPage() };
}

async function axeAtBothWidths(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await expectAccessible(page, `${name} at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('an owner claims a business, an admin approves, the owner answers a review and the reviewer reads it', async ({
  browser,
  baseURL,
  extraHTTPHeaders,
  page,
}) => {
  test.setTimeout(300_000);
  const headers = extraHTTPHeaders ?? {};
  const owner = await newAccount(page.request, 'Olga', 'Ägare');
  const reviewer = await newAccount(page.request, 'Rune', 'Recensent');
  const list = (await (await page.request.get('/api/business')).json()) as { _id: string; title: string; isSuggestionBox?: boolean }[];
  const business = list.find((b) => !b.isSuggestionBox && !/lägg till/i.test(b.title))!;
  const posted = await page.request.post(`/api/comment/create/${business._id}`, {
    headers: reviewer.bearer,
    multipart: { text: 'Bra sortiment men lång kö i kassan', businessLocation: 'Lund' },
  });
  expect(posted.ok()).toBe(true);
  const review = (await posted.json()) as { _id: string };

  // The member claims the business from its page (Swedish).
  const o = await signedIn(browser, baseURL!, owner.email, PASSWORD, headers, 'sv');
  try {
    await o.page.goto(`/business/${business._id}`);
    await o.page.getByRole('button', { name: 'Är det här din verksamhet?' }).click();
    const dialog = o.page.getByRole('dialog', { name: 'Gör anspråk på verksamheten' });
    await dialog.getByLabel('Meddelande till administratören (valfritt)').fill('Jag är butikschef.');
    await expectAccessible(o.page, 'claim dialog');
    await dialog.getByRole('button', { name: 'Skicka begäran' }).click();
    await expect(o.page.getByText('Din begäran väntar på granskning.')).toBeVisible();
    await axeAtBothWidths(o.page, 'business page with a pending claim');
  } finally {
    await o.context.close();
  }

  // An admin approves it (English).
  const a = await signedIn(browser, baseURL!, 'admin@demo.recensera.se', demoPassword(), headers, 'en');
  try {
    await a.page.goto('/claims');
    await expect(a.page.getByRole('heading', { level: 1, name: 'Ownership claims' })).toBeVisible();
    await axeAtBothWidths(a.page, 'claims');
    await a.page.getByRole('button', { name: `Approve Olga Ägare for ${business.title}` }).click();
    await expect(a.page.getByText('No claims are waiting.')).toBeVisible();
  } finally {
    await a.context.close();
  }

  // The owner answers the review (Swedish, then on a phone in English: the profile and the numbers).
  const o2 = await signedIn(browser, baseURL!, owner.email, PASSWORD, headers, 'sv');
  try {
    await o2.page.goto(`/business/${business._id}`);
    const card = o2.page.locator(`#comment-${review._id}`);
    await card.getByRole('button', { name: 'Svara som verksamheten' }).click();
    await card.getByLabel('Ditt svar').fill('Tack! Vi öppnar en kassa till på lördagar.');
    await card.getByRole('button', { name: 'Publicera svar' }).click();
    await expect(card.getByTestId('owner-reply')).toContainText(`Svar från ${business.title}`);
    await expect(card.getByTestId('owner-reply')).toContainText('Tack! Vi öppnar en kassa till på lördagar.');
    await axeAtBothWidths(o2.page, 'business page with an answer');
    await o2.page.goto('/user');
    await expect(o2.page.getByTestId('my-businesses')).toContainText('Din verksamhet');
    await o2.page
      .getByTestId('my-businesses')
      .getByRole('link', { name: `Siffror: ${business.title}` })
      .click();
    await expect(o2.page.getByRole('heading', { level: 1, name: `Siffror för ${business.title}` })).toBeVisible();
    await axeAtBothWidths(o2.page, 'owner numbers');
  } finally {
    await o2.context.close();
  }

  // The reviewer on a phone in English, then in Swedish: a notification that leads to the review with its answer.
  const en = await signedIn(browser, baseURL!, reviewer.email, PASSWORD, headers, 'en');
  try {
    await en.page.setViewportSize({ width: 375, height: 812 });
    await en.page.goto(`/comment/${review._id}`);
    await expect(en.page.getByTestId('owner-reply')).toContainText(`Reply from ${business.title}`);
    await axeAtBothWidths(en.page, 'comment page with an answer, English');
  } finally {
    await en.context.close();
  }

  const r = await signedIn(browser, baseURL!, reviewer.email, PASSWORD, headers, 'sv');
  try {
    await r.page.goto('/notifications');
    const entry = r.page.getByRole('link', { name: new RegExp(`${business.title} svarade på din recension`) });
    await expect(entry).toBeVisible();
    await axeAtBothWidths(r.page, 'notifications with an answer');
    await entry.click();
    await expect(r.page).toHaveURL(new RegExp(`/comment/${review._id}`));
    await expect(r.page.getByTestId('owner-reply')).toContainText(`Svar från ${business.title}`);
    await axeAtBothWidths(r.page, 'comment page with an answer');
    // The answer is reported like any post (issue 31.7): its own button, the same dialog.
    const answer = r.page.getByTestId('owner-reply');
    await answer.getByRole('button', { name: 'Rapportera' }).click();
    const dialog = r.page.getByRole('dialog');
    await dialog.getByLabel(/Kränkande/).check();
    await dialog.getByRole('textbox').fill('Svaret hånar mig');
    await expectAccessible(r.page, 'report dialog for an answer');
    await dialog.getByRole('button', { name: 'Skicka rapport' }).click();
    await expect(answer.getByText('Rapporterad')).toBeVisible();
  } finally {
    await r.context.close();
  }

  // A moderator (the demo admin, in English) finds it in the queue as the business's answer and removes it.
  const m = await signedIn(browser, baseURL!, 'admin@demo.recensera.se', demoPassword(), headers, 'en');
  try {
    await m.page.goto('/mod-queue');
    const group = m.page.getByTestId('report-group').filter({ hasText: 'Tack! Vi öppnar en kassa till på lördagar.' });
    await expect(group.getByText('Answer from the business')).toBeVisible();
    await expect(group.getByText('Svaret hånar mig')).toBeVisible();
    await axeAtBothWidths(m.page, 'queue with an answer');
    await group.getByRole('button', { name: 'Remove the post' }).click();
    await m.page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await expect(m.page.getByText('The post was removed.')).toBeVisible();
    await expect(group).toHaveCount(0);
  } finally {
    await m.context.close();
  }
  // Gone for visitors; its owner reads that a moderator removed it.
  await page.goto(`/comment/${review._id}`);
  await expect(page.locator(`#comment-${review._id}`)).toBeVisible();
  await expect(page.getByTestId('owner-reply')).toHaveCount(0);
  const o3 = await signedIn(browser, baseURL!, owner.email, PASSWORD, headers, 'sv');
  try {
    await o3.page.goto(`/comment/${review._id}`);
    await expect(o3.page.getByTestId('owner-reply-removed')).toContainText('En moderator har tagit bort svaret.');
    await expect(o3.page.getByTestId('owner-reply-removed')).toContainText('Orsak: Kränkande');
    await axeAtBothWidths(o3.page, 'removed answer, its owner');
  } finally {
    await o3.context.close();
  }
});
