import type { Page } from '@playwright/test';
import { demoPassword, expect, expectAccessible, test } from './fixtures';

// Issue 29 item 15: an admin sets the site's name, tagline and welcome text in both languages;
// the home page, the tab's title, the wordmark and the share preview use them at once. Walked in
// both languages on a desktop and a phone, axe-clean (label-content-name-mismatch on).

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 800 },
] as const;

const TEXT = {
  sv: {
    heading: 'Webbplatsens texter',
    name: 'Webbplatsens namn',
    taglineSv: 'Slogan på svenska',
    taglineEn: 'Slogan på engelska',
    welcomeSv: 'Välkomsttext på svenska',
    welcomeEn: 'Välkomsttext på engelska',
    save: 'Spara',
    saved: 'Webbplatsens texter är sparade.',
    welcomeTitle: (name: string) => `Välkommen till ${name}`,
    tooLong: 'För långt.',
  },
  en: {
    heading: "The site's words",
    name: "The site's name",
    taglineSv: 'Tagline in Swedish',
    taglineEn: 'Tagline in English',
    welcomeSv: 'Welcome text in Swedish',
    welcomeEn: 'Welcome text in English',
    save: 'Save',
    saved: "The site's words are saved.",
    welcomeTitle: (name: string) => `Welcome to ${name}`,
    tooLong: 'Too long.',
  },
} as const;

const DEFAULTS = { name: '', tagline: { sv: '', en: '' }, welcome: { sv: '', en: '' } };

async function signInAdmin(page: Page) {
  const res = await page.request.post('/api/users/logIn', { data: { email: 'admin@demo.recensera.se', password: demoPassword() } });
  expect(res.ok()).toBe(true);
}

test.afterEach(async ({ page }) => {
  // The release's words again, for every other journey.
  await signInAdmin(page);
  const res = await page.request.put('/api/site-settings', { data: DEFAULTS });
  expect(res.ok()).toBe(true);
});

for (const viewport of VIEWPORTS) {
  for (const lang of ['sv', 'en'] as const) {
    const s = TEXT[lang];
    const tag = `${viewport.name}, ${lang}`;
    test(`${tag}: an admin names the site; home, title, wordmark and preview follow (29.15)`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await signInAdmin(page);
      const words = {
        name: `Lund ${viewport.name}`,
        taglineSv: 'omdömen om butikerna i Lund',
        taglineEn: 'reviews of the stores of Lund',
        welcomeSv: 'Hej lundabo! Här skriver grannar om stans butiker.',
        welcomeEn: 'Hello, people of Lund! Neighbours write about the stores in town.',
      };

      await page.goto(`/site-settings?lang=${lang}`);
      await expect(page.getByRole('heading', { level: 1, name: s.heading })).toBeVisible();
      const name = page.getByLabel(s.name, { exact: true });
      // The words in use fill the form.
      await expect(name).toHaveValue('Recensera');
      await expectAccessible(page, `site settings (${tag})`);

      // Too long a name is refused beside the field, and nothing is saved.
      await name.fill('x'.repeat(41));
      await page.getByRole('button', { name: s.save, exact: true }).click();
      await expect(page.getByText(s.tooLong)).toBeVisible();
      await expect(name).toHaveAttribute('aria-invalid', 'true');
      await expectAccessible(page, `site settings with an error (${tag})`);

      await name.fill(words.name);
      await page.getByLabel(s.taglineSv, { exact: true }).fill(words.taglineSv);
      await page.getByLabel(s.taglineEn, { exact: true }).fill(words.taglineEn);
      await page.getByLabel(s.welcomeSv, { exact: true }).fill(words.welcomeSv);
      await page.getByLabel(s.welcomeEn, { exact: true }).fill(words.welcomeEn);
      await page.getByRole('button', { name: s.save, exact: true }).click();
      await expect(page.getByText(s.saved)).toBeVisible();
      // This tab's wordmark follows at once.
      await expect(page.getByRole('banner').getByRole('link', { name: words.name })).toBeVisible();

      // A fresh load of the home page: the server's title, preview and paint carry the words.
      await page.goto(`/?lang=${lang}`);
      const tagline = lang === 'sv' ? words.taglineSv : words.taglineEn;
      await expect(page).toHaveTitle(`${words.name} – ${tagline}`);
      await expect(page.locator('meta[property="og:site_name"]')).toHaveAttribute('content', words.name);
      await expect(page.getByRole('heading', { level: 1, name: s.welcomeTitle(words.name) })).toBeVisible();
      await expect(page.getByText(lang === 'sv' ? words.welcomeSv : words.welcomeEn)).toBeVisible();
      await expect(page.getByRole('banner').getByRole('link', { name: words.name })).toBeVisible();
      await expectAccessible(page, `home with the site's words (${tag})`);

      // Other pages: "<page> | <name>".
      await page.goto(`/about?lang=${lang}`);
      await expect(page).toHaveTitle(new RegExp(` \\| ${words.name}$`));
    });
  }
}
