import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { demoPassword, expect, expectAccessible, test } from './fixtures';

const SHOTS = process.env.E2E_SHOTS_DIR;

async function logIn(request: APIRequestContext, email: string): Promise<string> {
  const res = await request.post('/api/users/logIn', { data: { email, password: demoPassword() } });
  expect(res.ok(), `log in ${email}`).toBe(true);
  return (await res.json()).token as string;
}

/** Another browser (own cookies) signed in as `email`, in `lang`. */
async function signedIn(browser: Browser, baseURL: string, email: string, headers: Record<string, string>, lang: 'sv' | 'en' = 'sv') {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: headers });
  await context.addCookies([{ name: 'lang', value: lang, url: baseURL }]);
  const token = await logIn(context.request, email);
  return { context, token, page: await context.newPage() };
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: false });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function report(page: Page, commentId: string, reason: RegExp, note?: string) {
  await page.goto(`/comment/${commentId}`);
  const card = page.locator(`#comment-${commentId}`);
  await card.getByRole('button', { name: /^(Rapportera|Report)$/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(reason).check();
  if (note) await dialog.getByRole('textbox').fill(note);
  return { card, dialog };
}

test('three users report a comment: it is hidden from visitors, and the admin removes it from the queue', async ({ browser, baseURL, extraHTTPHeaders, page }) => {
  test.setTimeout(120_000);
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
    await expectAccessible(anna.page, 'report dialog');
    await shot(anna.page, 'report-dialog-sv');
    await first.dialog.getByRole('button', { name: 'Skicka rapport' }).click();
    await expect(anna.page.getByText('Tack! En moderator tittar på det.')).toBeVisible();
    await expect(first.card.getByText('Rapporterad')).toBeVisible();
    await anna.page.reload();
    await expect(anna.page.locator(`#comment-${commentId}`).getByText('Rapporterad')).toBeVisible();

    const erik = await signedIn(browser, baseURL!, 'erik@demo.recensera.se', headers, 'en');
    contexts.push(erik.context);
    const second = await report(erik.page, commentId, /Spam or advertising/);
    await shot(erik.page, 'report-dialog-en');
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
    await admin.page.getByRole('link', { name: 'Rapporter' }).click();
    await expect(admin.page).toHaveURL(/\/mod-queue$/);
    const group = admin.page.getByTestId('report-group').filter({ hasText: text });
    await expect(group).toBeVisible();
    await expect(group.getByText('3 rapporter')).toBeVisible();
    await expect(group.getByText('Reklam för en webbshop')).toBeVisible();
    await expect(group.getByText(/Anna Lindqvist/)).toBeVisible();
    await expectAccessible(admin.page, 'moderation queue');
    await shot(admin.page, 'mod-queue-sv');
    const adminEn = await signedIn(browser, baseURL!, 'admin@demo.recensera.se', headers, 'en');
    contexts.push(adminEn.context);
    await adminEn.page.goto('/mod-queue');
    await expect(adminEn.page.getByTestId('report-group').filter({ hasText: text }).getByText('3 reports')).toBeVisible();
    await shot(adminEn.page, 'mod-queue-en');
    await group.getByRole('button', { name: 'Ta bort inlägget' }).click();
    const confirm = admin.page.getByRole('alertdialog');
    await confirm.getByRole('textbox').fill('Reklam');
    await confirm.getByRole('button', { name: 'Bekräfta' }).click();
    await expect(admin.page.getByText('Inlägget togs bort.')).toBeVisible();
    await expect(group).toHaveCount(0);

    // The log keeps it; the comment is gone for everyone.
    await admin.page.goto('/mod-log');
    await expect(admin.page.getByRole('cell', { name: /Köp billiga klockor/ })).toBeVisible();
    await shot(admin.page, 'mod-log-sv');
    expect((await page.request.get(`/api/comment/${business._id}`)).ok()).toBe(true);
    await author.page.goto(`/comment/${commentId}`);
    await expect(author.page.getByText(text)).toHaveCount(0);

    // Nothing is left open.
    await adminEn.page.reload();
    await expect(adminEn.page.getByRole('heading', { name: 'Reports' })).toBeVisible();
    await expect(adminEn.page.getByTestId('report-group').filter({ hasText: text })).toHaveCount(0);
  } finally {
    for (const c of contexts) await c.close();
  }
});
