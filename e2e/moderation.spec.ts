import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { demoPassword, expect, expectAccessible, linkIn, newContext, readMail, test } from './fixtures';

const SHOTS = process.env.E2E_SHOTS_DIR;

async function logIn(request: APIRequestContext, email: string): Promise<string> {
  const res = await request.post('/api/users/logIn', { data: { email, password: demoPassword() } });
  expect(res.ok(), `log in ${email}`).toBe(true);
  return (await res.json()).token as string;
}

/** Another browser (own cookies) signed in as `email`, in `lang`. */
async function signedIn(browser: Browser, baseURL: string, email: string, headers: Record<string, string>, lang: 'sv' | 'en' = 'sv') {
  const context = await newContext(browser, { baseURL, extraHTTPHeaders: headers });
  await context.addCookies([{ name: 'lang', value: lang, url: baseURL }]);
  const token = await logIn(context.request, email);
  return { context, token, page: await context.newPage() };
}

/** Axe on the page at desktop and phone width, with a screenshot of each when E2E_SHOTS_DIR is set. */
async function check(page: Page, name: string, { fullPage = true } = {}) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await expectAccessible(page, `${name} at ${width} px`);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function report(page: Page, commentId: string, reason: RegExp, note?: string) {
  await page.goto(`/comment/${commentId}`);
  const card = page.locator(`#comment-${commentId}`);
  const dialog = page.getByRole('dialog');
  // A click on the served page before the app has taken it over does nothing: click again until the dialog opens.
  await expect(async () => {
    await card.getByRole('button', { name: /^(Rapportera|Report)$/ }).click();
    await expect(dialog).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await dialog.getByLabel(reason).check();
  if (note) await dialog.getByRole('textbox').fill(note);
  return { card, dialog };
}

test('three users report a comment: it is hidden from visitors, and the admin removes it from the queue', async ({
  browser,
  baseURL,
  extraHTTPHeaders,
  page,
}) => {
  test.setTimeout(240_000);
  const headers = extraHTTPHeaders ?? {};
  const contexts: BrowserContext[] = [];
  try {
    // Oskar posts a comment on a business (through the API: the posting journey is comments.spec.ts).
    const author = await signedIn(browser, baseURL!, 'oskar@demo.recensera.se', headers);
    contexts.push(author.context);
    const list = (await (await author.context.request.get('/api/business')).json()) as { _id: string; title: string; isSuggestionBox?: boolean }[];
    const business = list.find((b) => !b.isSuggestionBox && !/lägg till/i.test(b.title))!;
    const text = `Köp billiga klockor på min sajt ${Date.now()}`;
    const created = await author.context.request.post(`/api/comment/create/${business._id}`, {
      headers: { authorization: `Bearer ${author.token}` },
      multipart: { text, businessLocation: 'Umeå' },
    });
    expect(created.status()).toBe(201);
    const commentId = (await created.json())._id as string;

    // A visitor is asked to log in.
    await page.goto(`/comment/${commentId}`);
    await page.locator(`#comment-${commentId}`).getByRole('button', { name: 'Rapportera' }).click();
    await expect(page.getByText('Logga in för att rapportera ett inlägg.')).toBeVisible();

    // Anna (Swedish) and Erik (English) report it through the dialog.
    const anna = await signedIn(browser, baseURL!, 'anna@demo.recensera.se', headers);
    contexts.push(anna.context);
    const first = await report(anna.page, commentId, /Spam eller reklam/, 'Reklam för en webbshop');
    // A dialog covers the viewport only: its shots are the viewport.
    await check(anna.page, 'report-dialog-sv', { fullPage: false });
    await first.dialog.getByRole('button', { name: 'Skicka rapport' }).click();
    await expect(anna.page.getByText('Tack! En moderator tittar på det.')).toBeVisible();
    await expect(first.card.getByText('Rapporterad')).toBeVisible();
    await anna.page.reload();
    await expect(anna.page.locator(`#comment-${commentId}`).getByText('Rapporterad')).toBeVisible();

    const erik = await signedIn(browser, baseURL!, 'erik@demo.recensera.se', headers, 'en');
    contexts.push(erik.context);
    const second = await report(erik.page, commentId, /Spam or advertising/);
    await check(erik.page, 'report-dialog-en', { fullPage: false });
    await second.dialog.getByRole('button', { name: 'Send report' }).click();
    await expect(second.card.getByText('Reported')).toBeVisible();

    // Still visible to visitors after two reports.
    await page.goto(`/business/${business._id}`);
    await expect(page.getByText(text)).toBeVisible();

    const sara = await signedIn(browser, baseURL!, 'sara@demo.recensera.se', headers);
    contexts.push(sara.context);
    const third = await report(sara.page, commentId, /Kränkande/);
    await third.dialog.getByRole('button', { name: 'Skicka rapport' }).click();
    await expect(sara.page.getByText('Tack! En moderator tittar på det.')).toBeVisible();

    // Hidden: gone for a visitor; its author still sees it, marked.
    await page.goto(`/business/${business._id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText(text)).toHaveCount(0);
    await page.goto('/');
    await expect(page.getByText(text.slice(0, 15))).toHaveCount(0);
    await author.page.goto(`/comment/${commentId}`);
    await expect(author.page.getByText('Dold medan en moderator granskar den')).toBeVisible();

    // The admin finds it in the queue (linked from the profile) and removes it.
    const admin = await signedIn(browser, baseURL!, 'admin@demo.recensera.se', headers);
    contexts.push(admin.context);
    await admin.page.goto('/user');
    // The profile's link (the header has its own, named with the waiting count).
    await admin.page.getByRole('main').getByRole('link', { name: 'Rapporter', exact: true }).click();
    await expect(admin.page).toHaveURL(/\/mod-queue$/);
    const group = admin.page.getByTestId('report-group').filter({ hasText: text });
    await expect(group).toBeVisible();
    await expect(group.getByText('3 rapporter')).toBeVisible();
    await expect(group.getByText('Reklam för en webbshop')).toBeVisible();
    await expect(group.getByText(/Anna Lindqvist/)).toBeVisible();
    await check(admin.page, 'mod-queue-sv');
    const adminEn = await signedIn(browser, baseURL!, 'admin@demo.recensera.se', headers, 'en');
    contexts.push(adminEn.context);
    await adminEn.page.goto('/mod-queue');
    await expect(adminEn.page.getByTestId('report-group').filter({ hasText: text }).getByText('3 reports')).toBeVisible();
    await check(adminEn.page, 'mod-queue-en');
    await group.getByRole('button', { name: 'Ta bort inlägget' }).click();
    const confirm = admin.page.getByRole('alertdialog');
    // The reason the author reads (a report reason and words to them) apart from the log's note (issue 27 item 10).
    // Picked until the field shows it: a click that lands while the list is still opening is lost
    // (seen once in CI: the removal went out with the reports' own reasons).
    const authorReason = confirm.getByRole('combobox', { name: 'Orsak som visas för författaren' });
    await expect(async () => {
      if (!(await authorReason.textContent())?.includes('Spam eller reklam')) {
        await authorReason.click();
        await admin.page.getByRole('option', { name: 'Spam eller reklam' }).click({ timeout: 2_000 });
      }
      await expect(authorReason).toContainText('Spam eller reklam', { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await confirm.getByRole('textbox', { name: 'Ord till författaren (valfritt)' }).fill('Reklam');
    await confirm.getByRole('textbox', { name: 'Anteckning till loggen (valfritt)' }).fill('Tredje gången i dag');
    await confirm.getByRole('button', { name: 'Bekräfta' }).click();
    await expect(admin.page.getByText('Inlägget togs bort.')).toBeVisible();
    await expect(group).toHaveCount(0);

    // The log keeps it, with the reason, in both languages.
    await admin.page.goto('/mod-log');
    const row = admin.page.getByRole('row').filter({ hasText: 'Köp billiga klockor' });
    await expect(row.getByRole('cell', { name: 'Tog bort', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Spam eller reklam: Reklam — Tredje gången i dag', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Admin Demo' })).toBeVisible();
    await check(admin.page, 'mod-log-sv');
    await adminEn.page.goto('/mod-log');
    await expect(adminEn.page.getByRole('row').filter({ hasText: 'Köp billiga klockor' }).getByRole('cell', { name: 'Removed', exact: true })).toBeVisible();
    await check(adminEn.page, 'mod-log-en');

    // Gone for visitors; its author finds a notice with the reason in its place.
    expect((await page.request.get(`/api/comment/${business._id}`)).ok()).toBe(true);
    await page.goto(`/business/${business._id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Borttagen av en moderator')).toHaveCount(0);
    await author.page.goto(`/comment/${commentId}`);
    const notice = author.page.locator(`#comment-${commentId}`).getByTestId('removal-notice');
    await expect(notice).toContainText('En moderator har tagit bort ditt inlägg.');
    await expect(notice).toContainText('Orsak: Spam eller reklam: Reklam');
    await expect(notice).not.toContainText('Tredje gången');
    await expect(author.page.getByText(text)).toHaveCount(0);
    await expect(author.page.locator(`#comment-${commentId}`).getByRole('button', { name: 'Redigera' })).toHaveCount(0);
    await check(author.page, 'removal-notice-sv');
    const authorEn = await signedIn(browser, baseURL!, 'oskar@demo.recensera.se', headers, 'en');
    contexts.push(authorEn.context);
    await authorEn.page.goto(`/comment/${commentId}`);
    const noticeEn = authorEn.page.locator(`#comment-${commentId}`).getByTestId('removal-notice');
    await expect(noticeEn).toContainText('A moderator removed your post.');
    await expect(noticeEn).toContainText('Reason: Spam or advertising: Reklam');
    await check(authorEn.page, 'removal-notice-en');

    // Nothing is left open.
    await adminEn.page.goto('/mod-queue');
    await expect(adminEn.page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
    await expect(adminEn.page.getByTestId('report-group').filter({ hasText: text })).toHaveCount(0);
  } finally {
    for (const c of contexts) await c.close();
  }
});

test('the registration and contact forms carry a spam trap people never reach', async ({ page }) => {
  for (const [path, id, before, after] of [
    ['/registration', '#reg-website', '#reg-confirmPassword', /^registrera$/i],
    ['/contact', '#contact-website', '#contact-message', /^Skicka$/],
  ] as const) {
    await page.goto(path);
    const trap = page.locator(id);
    await expect(trap).toHaveAttribute('tabindex', '-1');
    await expect(trap).toHaveAttribute('autocomplete', 'off');
    await expect(page.locator(`div[aria-hidden="true"]:has(${id})`)).toHaveCount(1);
    const box = await page.locator(`div[aria-hidden="true"]:has(${id})`).boundingBox();
    expect(box !== null && box.width <= 1 && box.height <= 1, `${path}: the trap takes no room on screen`).toBe(true);
    // The keyboard goes from the last real field to the submit button without stopping in the trap.
    await page.locator(before).focus();
    const submit = page.getByRole('button', { name: after }).first();
    let reached = false;
    for (let i = 0; i < 4 && !reached; i++) {
      await page.keyboard.press('Tab');
      await expect(trap).not.toBeFocused();
      reached = await submit.evaluate((el) => el === document.activeElement);
    }
    expect(reached, `${path}: Tab reaches the submit button`).toBe(true);
  }
});

test('five new accounts rate one business: their ratings wait, held out of its figures, until an admin accepts them', async ({
  browser,
  baseURL,
  extraHTTPHeaders,
  page,
}) => {
  test.setTimeout(120_000);
  const headers = extraHTTPHeaders ?? {};
  const list = (await (await page.request.get('/api/business')).json()) as { _id: string; title: string; isSuggestionBox?: boolean }[];
  const business = list.filter((b) => !b.isSuggestionBox && !/lägg till/i.test(b.title)).at(-1)!;
  const before = (await (await page.request.get(`/api/business/${business._id}`)).json()) as { ratingCount: number; rate: number | null };
  const password = 'Burst-pass-123';
  const stamp = Date.now();
  // Five fresh accounts, each registered, confirmed from its mail and signed in, rate it.
  for (let i = 0; i < 5; i++) {
    const email = `burst.${stamp}.${i}@example.com`;
    const startedAt = Date.now();
    const reg = await page.request.post('/api/users/register', {
      multipart: { firstName: `Ny${i}`, lastName: 'Konto', email, password, confirmPassword: password },
    });
    expect(reg.status()).toBe(201);
    const token = new URL(linkIn(await readMail(email, { after: startedAt - 1000 }), '/users/confirm-email')).searchParams.get('token');
    expect((await page.request.put(`/api/users/confirm-email?token=${token}`)).ok()).toBe(true);
    const login = await page.request.post('/api/users/logIn', { data: { email, password } });
    const bearer = { authorization: `Bearer ${(await login.json()).token}` };
    expect((await page.request.post(`/api/business/addRate/${business._id}`, { headers: bearer, data: { rate: 5 } })).ok()).toBe(true);
  }

  // Held (issue 27): the public figures have not moved, and the page says how many wait.
  const held = (await (await page.request.get(`/api/business/${business._id}`)).json()) as { ratingCount: number; rate: number | null; heldRatings: number };
  expect(held).toMatchObject({ ratingCount: before.ratingCount, rate: before.rate, heldRatings: 5 });
  await page.goto(`/business/${business._id}`);
  await expect(page.getByText('5 betyg väntar på granskning')).toBeVisible();

  const contexts: BrowserContext[] = [];
  try {
    const admin = await signedIn(browser, baseURL!, 'admin@demo.recensera.se', headers);
    const adminEn = await signedIn(browser, baseURL!, 'admin@demo.recensera.se', headers, 'en');
    contexts.push(admin.context, adminEn.context);
    await admin.page.goto('/mod-queue');
    const burst = admin.page.getByTestId('rating-burst').filter({ hasText: business.title });
    await expect(burst).toBeVisible();
    await expect(burst.getByText('5 betyg')).toBeVisible();
    await expect(burst.getByText(/Ny0 Konto: 5 av 5 stjärnor/)).toBeVisible();
    await check(admin.page, 'mod-queue-burst-sv');
    await adminEn.page.goto('/mod-queue');
    await expect(adminEn.page.getByTestId('rating-burst').filter({ hasText: business.title }).getByText('5 ratings')).toBeVisible();
    await check(adminEn.page, 'mod-queue-burst-en');

    await burst.getByRole('button', { name: 'Godkänn betygen' }).click();
    await admin.page.getByRole('alertdialog').getByRole('button', { name: 'Bekräfta' }).click();
    await expect(admin.page.getByText('Betygen godkändes och räknas nu.')).toBeVisible();
    await expect(burst).toHaveCount(0);
    const accepted = (await (await page.request.get(`/api/business/${business._id}`)).json()) as { ratingCount: number; heldRatings: number };
    expect(accepted).toMatchObject({ ratingCount: before.ratingCount + 5, heldRatings: 0 });
    await admin.page.goto('/mod-log');
    await admin.page.getByLabel('Åtgärd').selectOption('acceptBurst');
    await expect(admin.page.getByRole('row').filter({ hasText: business.title }).getByRole('cell', { name: 'Godkände betygsvåg' })).toBeVisible();
  } finally {
    for (const c of contexts) await c.close();
  }
});

test('comment management searches text, author or business, keeps it in the address, pages, and links each row to its item (29.13)', async ({
  browser,
  baseURL,
  extraHTTPHeaders,
  request,
}) => {
  test.setTimeout(240_000);
  // Fifteen more comments (the demo's 36 fit on one page of 50), three each from five members
  // (within the per-minute post limit), all with one made-up word the text search finds.
  const stamp = `klockslag${Date.now().toString(36)}`;
  const business = ((await (await request.get('/api/business')).json()) as { _id: string; isSuggestionBox?: boolean }[]).find((b) => !b.isSuggestionBox)!;
  for (const name of ['anna', 'erik', 'mohammed', 'liwei', 'johanna']) {
    const token = await logIn(request, `${name}@demo.recensera.se`);
    for (let i = 0; i < 3; i++) {
      const created = await request.post(`/api/comment/create/${business._id}`, {
        headers: { authorization: `Bearer ${token}` },
        multipart: { text: `Besök nummer ${i + 1}, ${stamp}`, businessLocation: 'Umeå' },
      });
      expect(created.status(), await created.text()).toBe(201);
    }
  }
  const TEXT = {
    sv: {
      title: 'Hantera kommentarer',
      search: 'Sök kommentarer',
      more: 'Visa fler kommentarer',
      business: 'Företag',
      user: 'Användare',
      none: 'Inga kommentarer matchar',
    },
    en: { title: 'Comment management', search: 'Search comments', more: 'Load more comments', business: 'Business', user: 'User', none: 'No comments match' },
  } as const;
  for (const lang of ['sv', 'en'] as const) {
    const s = TEXT[lang];
    const admin = await signedIn(browser, baseURL!, 'admin@demo.recensera.se', extraHTTPHeaders ?? {}, lang);
    try {
      const { page } = admin;
      await page.goto('/cmt-mng');
      await expect(page.getByRole('heading', { level: 1, name: s.title })).toBeVisible();
      const rows = page.locator('tbody > tr:first-child');
      await expect(rows.first()).toBeVisible();
      // Paged: 50 comments, then more on request.
      await expect(rows).toHaveCount(50);
      await page.getByRole('button', { name: s.more }).click();
      await expect.poll(() => rows.count()).toBeGreaterThan(50);

      // By text: the made-up word finds exactly those fifteen.
      const search = page.getByRole('searchbox', { name: s.search });
      await search.fill(stamp.toUpperCase());
      await expect(page).toHaveURL(new RegExp(`[?&]q=${stamp.toUpperCase()}`));
      await expect(rows).toHaveCount(15);
      await expect.poll(async () => (await rows.allInnerTexts()).every((r) => r.includes(stamp))).toBe(true);
      // Cleared: the whole list again (with the pages already loaded).
      await search.fill('');
      await expect(page).not.toHaveURL(/[?&]q=/);
      await expect.poll(() => rows.count()).toBeGreaterThan(50);

      // By business: part of a title, in lower case, finds only that business's comments (or ones naming it).
      const title = (await rows.first().locator(`td[data-label="${s.business}"]`).innerText()).trim();
      const word = title.split(/\s+/)[0].toLocaleLowerCase('sv');
      await search.fill(word);
      await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(word).replace(/%20/g, '(\\+|%20)')}`));
      await expect(rows.first()).toBeVisible();
      await expect.poll(async () => (await rows.allInnerTexts()).every((r) => r.toLocaleLowerCase('sv').includes(word))).toBe(true);
      await check(page, `cmt-mng-search-${lang}`);

      // By author: a first name.
      const author = (await rows.first().locator(`td[data-label="${s.user}"]`).innerText()).trim().split(/\s+/)[0];
      await search.fill(author);
      await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(author)}`));
      await expect.poll(async () => (await rows.allInnerTexts()).every((r) => r.includes(author))).toBe(true);

      // Nothing found says so; a reload keeps the search.
      await search.fill('zzqxy');
      await expect(page.getByText(`${s.none}`)).toBeVisible();
      await page.reload();
      await expect(page.getByRole('searchbox', { name: s.search })).toHaveValue('zzqxy');
      await expect(page.getByText(`${s.none}`)).toBeVisible();

      // Each row's number opens its item.
      await page.goto(`/cmt-mng?q=${encodeURIComponent(word)}`);
      const link = rows.first().getByRole('link');
      const href = await link.getAttribute('href');
      expect(href).toMatch(/^\/comment\/[\w-]+$/);
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expect(page.locator(`#comment-${href!.split('/').pop()}`)).toBeVisible();
    } finally {
      await admin.context.close();
    }
  }
});
