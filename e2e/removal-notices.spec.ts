import type { Browser } from '@playwright/test';
import { demoPassword, expect, expectAccessible, newContext, test } from './fixtures';

// Issue 29 item 11: a person whose post a moderator removed finds it, with the reason, on their
// own profile (besides the notification), in both languages on a desktop and a phone.

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 800 },
] as const;

const TEXT = {
  sv: { title: 'Dina dolda och borttagna inlägg', removed: 'Borttagen av en moderator.', reason: 'Orsak: Spam eller reklam: Reklam' },
  en: { title: 'Your hidden and removed posts', removed: 'Removed by a moderator.', reason: 'Reason: Spam or advertising: Reklam' },
} as const;

async function as(browser: Browser, baseURL: string, email: string, viewport: { width: number; height: number }) {
  const context = await newContext(browser, { baseURL, viewport });
  const res = await context.request.post('/api/users/logIn', { data: { email, password: demoPassword() } });
  expect(res.ok()).toBe(true);
  return context;
}

for (const viewport of VIEWPORTS) {
  for (const lang of ['sv', 'en'] as const) {
    const s = TEXT[lang];
    const tag = `${viewport.name}, ${lang}`;
    test(`${tag}: a removed post and its reason are on its author's profile (29.11)`, async ({ browser, baseURL }) => {
      test.setTimeout(90_000);
      const size = { width: viewport.width, height: viewport.height };
      const author = await as(browser, baseURL!, 'mohammed@demo.recensera.se', size);
      const admin = await as(browser, baseURL!, 'admin@demo.recensera.se', size);
      const reporter = await as(browser, baseURL!, 'erik@demo.recensera.se', size);
      try {
        const list = (await (await author.request.get('/api/business')).json()) as { _id: string; isSuggestionBox?: boolean }[];
        const business = list.find((b) => !b.isSuggestionBox)!;
        const text = `Billiga klockor här ${tag} ${Date.now().toString(36)}`;
        const posted = await author.request.post(`/api/comment/create/${business._id}`, { multipart: { text, businessLocation: 'Lund' } });
        expect(posted.ok()).toBe(true);
        const { _id: id } = (await posted.json()) as { _id: string };
        const reported = await reporter.request.post(`/api/comment/report/${id}`, { data: { reason: 'spam' } });
        expect(reported.status()).toBe(201);
        const removed = await admin.request.post(`/api/reports/${id}/resolve`, { data: { action: 'remove', reason: 'spam', reasonText: 'Reklam' } });
        expect(removed.ok()).toBe(true);

        const page = await author.newPage();
        await page.goto(`/user?lang=${lang}`);
        const section = page.getByRole('region', { name: s.title });
        // A removed post's text is gone: its entry is the one linking to it.
        const item = section.getByRole('listitem').filter({ has: page.locator(`a[href="/comment/${id}"]`) });
        await expect(item).toBeVisible();
        await expect(item).toContainText(s.removed);
        await expect(item).toContainText(s.reason);
        await expectAccessible(page, `profile with a removal notice (${tag})`);
      } finally {
        await author.close();
        await admin.close();
        await reporter.close();
      }
    });
  }
}
