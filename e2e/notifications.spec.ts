import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, expectAccessible, linkIn, newContext, readMail, test } from './fixtures';

const PASSWORD = 'Notis-pass-123';

/** A fresh account, registered and confirmed from its mail (demo accounts get no mail); returns its bearer header. */
async function newAccount(request: APIRequestContext, firstName: string, lastName: string, language: 'sv' | 'en') {
  const email = `${firstName.toLowerCase()}.${Date.now()}@example.com`;
  const startedAt = Date.now();
  const reg = await request.post('/api/users/register', { multipart: { firstName, lastName, email, password: PASSWORD, confirmPassword: PASSWORD, language } });
  expect(reg.status()).toBe(201);
  const token = new URL(linkIn(await readMail(email, { after: startedAt - 1000 }), '/users/confirm-email')).searchParams.get('token');
  expect((await request.put(`/api/users/confirm-email?token=${token}`)).ok()).toBe(true);
  const login = await request.post('/api/users/logIn', { data: { email, password: PASSWORD } });
  return { email, bearer: { authorization: `Bearer ${(await login.json()).token}` } };
}

/** A browser of its own signed in as `email`, in `lang`. */
async function signedIn(browser: Browser, baseURL: string, email: string, headers: Record<string, string>, lang: 'sv' | 'en') {
  const context = await newContext(browser, { baseURL, extraHTTPHeaders: headers });
  await context.addCookies([{ name: 'lang', value: lang, url: baseURL }]);
  expect((await context.request.post('/api/users/logIn', { data: { email, password: PASSWORD } })).ok()).toBe(true);
  return { context, page: await context.newPage() };
}

async function axeAtBothWidths(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await expectAccessible(page, `${name} at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A header of a raw .eml, unfolded. */
const headerOf = (mail: string, name: string) =>
  mail
    .replace(/\r?\n[ \t]+/g, ' ')
    .match(new RegExp(`^${name}: (.*)$`, 'mi'))?.[1]
    .trim();

test('Anna posts, Bo replies: the bell, the notification to the reply, the profiles, the mail and its one-click unsubscribe', async ({
  browser,
  baseURL,
  extraHTTPHeaders,
  page,
  playwright,
}) => {
  test.setTimeout(120_000);
  const headers = extraHTTPHeaders ?? {};
  const anna = await newAccount(page.request, 'Anna', 'Notis', 'sv');
  const bo = await newAccount(page.request, 'Bo', 'Svarsson', 'sv');
  const list = (await (await page.request.get('/api/business')).json()) as { _id: string; title: string; isSuggestionBox?: boolean }[];
  const business = list.find((b) => !b.isSuggestionBox && !/lägg till/i.test(b.title))!;

  const posted = await page.request.post(`/api/comment/create/${business._id}`, {
    headers: anna.bearer,
    multipart: { text: 'Trevlig personal och färskt bröd varje morgon', businessLocation: 'Lund' },
  });
  expect(posted.ok()).toBe(true);
  const comment = (await posted.json()) as { _id: string };
  const repliedAt = Date.now();
  const replied = await page.request.post(`/api/comment/addSubComment/${comment._id}`, {
    headers: bo.bearer,
    multipart: { text: 'Håller med, bästa bageriet i stan' },
  });
  expect(replied.ok()).toBe(true);

  // New accounts show the initial of their last name to others (issue 30).
  // Swedish, desktop: the bell says one unread; the page lists Bo's reply; it leads to the reply.
  const sv = await signedIn(browser, baseURL!, anna.email, headers, 'sv');
  try {
    await sv.page.goto('/');
    // The feed card names the author, linked to her profile, with the date (issue 30, item 8).
    const feed = sv.page.getByRole('region', { name: /Utforska kommentarerna med högst betyg/ });
    await expect(feed.getByRole('list').first().getByRole('listitem')).toHaveCount(12);
    const card = feed.getByRole('list').first().getByRole('listitem').filter({ hasText: 'Trevlig personal och färskt bröd varje morgon' });
    await expect(card.getByTestId('author-link')).toHaveAttribute('href', /^\/u\//);
    await expect(card.getByTestId('author-link')).toHaveText('Anna N.');
    await expect(card.locator('time')).toBeVisible();
    const bell = sv.page.getByRole('link', { name: 'Notiser: 1 olästa' });
    await expect(bell).toBeVisible();
    await bell.click();
    await expect(sv.page).toHaveURL(/\/notifications$/);
    const entry = sv.page.getByTestId('notifications').getByRole('link', { name: new RegExp(`Bo S\\. svarade på din recension av ${business.title}`) });
    await expect(entry).toBeVisible();
    await axeAtBothWidths(sv.page, 'notifications-sv');
    // Phone: the drawer carries the count too.
    await sv.page.setViewportSize({ width: 375, height: 812 });
    await sv.page.getByRole('button', { name: 'Meny' }).click();
    await expect(sv.page.getByTestId('notifications-drawer-item')).toHaveAccessibleName('Notiser 1 olästa');
    await expectAccessible(sv.page, 'drawer with notifications at 375 px');
    await sv.page.keyboard.press('Escape');
    await sv.page.setViewportSize({ width: 1280, height: 900 });
    await entry.click();
    await expect(sv.page).toHaveURL(new RegExp(`/comment/${comment._id}#reply-`));
    const replyId = new URL(sv.page.url()).hash.slice('#reply-'.length);
    await expect(sv.page.locator(`#reply-${replyId}`)).toContainText('Håller med, bästa bageriet i stan');
    await expect(sv.page.getByRole('link', { name: 'Notiser' })).toBeVisible();
    // Bo's name on the reply opens his public profile.
    await sv.page.locator(`#reply-${replyId}`).getByTestId('author-link').click();
    await expect(sv.page).toHaveURL(/\/u\/[^/]+$/);
    await expect(sv.page.getByRole('heading', { level: 1, name: 'Bo S.' })).toBeVisible();
    await expect(sv.page.getByText('1 svar')).toBeVisible();
    await axeAtBothWidths(sv.page, 'public-profile-sv');
    // Anna's own profile links to her public profile, which lists her review.
    await sv.page.goto('/user');
    // Her own profile lists her review and links to it (issue 30, item 7).
    const mine = sv.page.getByTestId('my-reviews').getByRole('link', { name: 'Trevlig personal och färskt bröd varje morgon' });
    await expect(mine).toHaveAttribute('href', `/comment/${comment._id}`);
    await expect(sv.page.getByTestId('my-replies')).toContainText('Du har inte svarat på något än.');
    await axeAtBothWidths(sv.page, 'own-profile-sv');
    await sv.page.getByTestId('public-profile-link').click();
    await expect(sv.page.getByRole('heading', { level: 1, name: 'Anna N.' })).toBeVisible();
    await expect(sv.page.getByTestId('profile-reviews')).toContainText('Trevlig personal och färskt bröd varje morgon');
  } finally {
    await sv.context.close();
  }

  // The reply mail: both List-Unsubscribe headers; its one-click POST (no cookie) turns replies off.
  const mail = await readMail(anna.email, { after: repliedAt - 1000, timeoutMs: 45_000 });
  expect(mail).toContain('Bo S. svarade p=C3=A5 din recension'); // quoted-printable
  expect(headerOf(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  const unsubscribe = headerOf(mail, 'List-Unsubscribe')?.replace(/^<|>$/g, '');
  expect(unsubscribe).toMatch(/\/unsubscribe\?user=.+&kind=replies&token=.+/);
  const cookieless = await playwright.request.newContext({ extraHTTPHeaders: headers });
  try {
    const post = await cookieless.post(unsubscribe!, { form: { 'List-Unsubscribe': 'One-Click' } });
    expect(post.status()).toBe(200);
    expect(await post.text()).toContain('du får inte längre e-post om svar');
  } finally {
    await cookieless.dispose();
  }
  const settings = await page.request.get('/api/notification-settings', { headers: anna.bearer });
  expect(await settings.json()).toMatchObject({ replies: 'off' });

  // Two more replies after Anna read the first (issue 30, item 4): one new entry counts them, names
  // the latest replier and leads to the first she missed; the read one stays as it was.
  const more: string[] = [];
  for (const text of ['Och kanelbullarna är de bästa', 'Glöm inte surdegsbrödet på lördagar']) {
    const res = await page.request.post(`/api/comment/addSubComment/${comment._id}`, { headers: bo.bearer, multipart: { text } });
    expect(res.ok()).toBe(true);
    more.push(((await res.json()) as { _id: string })._id);
  }

  // English, phone: both entries, in English.
  const en = await signedIn(browser, baseURL!, anna.email, headers, 'en');
  try {
    await en.page.setViewportSize({ width: 375, height: 812 });
    await en.page.goto('/notifications');
    await expect(en.page.getByRole('link', { name: new RegExp(`Bo S\\. replied to your review of ${business.title}`) })).toBeVisible();
    const grouped = en.page.getByRole('link', { name: new RegExp(`2 new replies to your review of ${business.title}, the latest from Bo S\\.`) });
    await expect(grouped).toBeVisible();
    await axeAtBothWidths(en.page, 'notifications-en');
    // One unread entry for the two replies.
    await expect(en.page.getByRole('link', { name: 'Notifications: 1 unread' })).toBeVisible();
    await en.page.setViewportSize({ width: 375, height: 812 });
    await grouped.click();
    await expect(en.page).toHaveURL(new RegExp(`/comment/${comment._id}#reply-${more[0]}$`));
    await expect(en.page.locator(`#reply-${more[0]}`)).toContainText('Och kanelbullarna är de bästa');
  } finally {
    await en.context.close();
  }
});
