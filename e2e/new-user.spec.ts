import type { Page } from '@playwright/test';
import { demoPassword, expect, expectAccessible, test } from './fixtures';

// Issue 29: what got in a new user's way, walked again in both languages on a desktop and a
// phone, axe-clean with `label-content-name-mismatch` on (fixtures.ts).

type RestBusiness = { _id: string; title: string; isSuggestionBox: boolean; branches: { _id: string; location: string }[]; ratingCount: number };

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 800 },
] as const;

const TEXT = {
  sv: {
    comments: 'Kommentarer',
    rating: 'Betyg',
    summary: /^\d,\d av 5 · \d+ betyg · \d+ recension(er)?$/,
    reactions: /^(Snitt \d,\d av 5 · )?\d+ reaktion(er)?$/,
    reactGroup: 'Reagera med en emoji',
    thanks: 'Tack för din reaktion!',
    bar: (level: number) => new RegExp(`^${level} stjärn(a|or): \\d+ betyg, \\d+ %$`),
    yourRating: 'Ditt betyg',
    stars: (n: number) => (n === 1 ? '1 stjärna' : `${n} stjärnor`),
    rate: 'Betygsätt',
    submitted: 'Betyg skickat',
    text: 'Din kommentar',
    place: 'Butikens plats',
    otherPlace: (p: string) => `Annan plats: ${p}`,
    branchFilter: 'Filial',
    placeOption: (p: string) => new RegExp(`^${p} – annan plats \\(\\d+\\)$`),
    formStars: 'Stjärnor för butiken (valfritt)',
    clearStars: 'Ta bort betyg',
    publish: 'Publicera',
    posted: 'Tack! Din kommentar är publicerad.',
    prompt: 'Bli en del av Recensera',
    search: 'Sök på namn, kategori, ort eller beskrivning',
  },
  en: {
    comments: 'Comments',
    rating: 'Rating',
    summary: /^\d\.\d of 5 · \d+ ratings? · \d+ reviews?$/,
    reactions: /^(Average \d\.\d of 5 · )?\d+ reactions?$/,
    reactGroup: 'React with an emoji',
    thanks: 'Thank you for your rate!',
    bar: (level: number) => new RegExp(`^${level} stars?: \\d+ ratings?, \\d+%$`),
    yourRating: 'Your rating',
    stars: (n: number) => (n === 1 ? '1 star' : `${n} stars`),
    rate: 'Rate',
    submitted: 'Rate Submitted',
    text: 'Your comment',
    place: 'Store location',
    otherPlace: (p: string) => `Other location: ${p}`,
    branchFilter: 'Branch',
    placeOption: (p: string) => new RegExp(`^${p} – other place \\(\\d+\\)$`),
    formStars: 'Stars for the business (optional)',
    clearStars: 'Remove rating',
    publish: 'Post',
    posted: 'Thank you! Your comment is posted.',
    prompt: 'Join Recensera',
    search: 'Search by name, category, town or description',
  },
} as const;

async function signIn(page: Page, email: string) {
  const res = await page.request.post('/api/users/logIn', { data: { email, password: demoPassword() } });
  expect(res.ok()).toBe(true);
}

/** A demo business with comments and branches (the first with the most ratings), from the REST list. */
async function busyBusiness(page: Page): Promise<RestBusiness> {
  const list = (await (await page.request.get('/api/business')).json()) as RestBusiness[];
  return list.filter((b) => !b.isSuggestionBox && b.branches.length >= 2).sort((a, b) => b.ratingCount - a.ratingCount)[0];
}

const shot = async (page: Page, name: string) => {
  if (process.env.E2E_SHOTS) await page.screenshot({ path: `${process.env.E2E_SHOTS}/${name}.png`, fullPage: false });
};

for (const viewport of VIEWPORTS) {
  for (const lang of ['sv', 'en'] as const) {
    const s = TEXT[lang];
    const tag = `${viewport.name}, ${lang}`;

    test.describe(tag, () => {
      test.beforeEach(async ({ page }) => {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
      });

      test(`${tag}: stars are ratings, emoji are reactions; the bars are named by what they show; focus stays put (29.1, 3, 5)`, async ({ page }) => {
        test.setTimeout(90_000);
        const business = await busyBusiness(page);
        await signIn(page, 'erik@demo.recensera.se');
        await page.goto(`/business/${business._id}?lang=${lang}`);
        const panel = page.getByRole('region', { name: s.rating, exact: true });
        // "7 betyg · 1 recension": the stars' count and the written reviews', told apart.
        await expect(panel.getByText(s.summary)).toBeVisible();
        // Each bar's name starts with the level it shows (WCAG 2.5.3).
        for (const level of [5, 4, 3, 2, 1]) await expect(panel.getByRole('link', { name: s.bar(level) })).toHaveCount(1);

        const section = page.getByRole('region', { name: s.comments });
        await expect(section.getByRole('article').first()).toBeVisible();
        await expect(section.getByText(s.reactions).first()).toBeVisible();
        await expectAccessible(page, `business page (${tag})`);
        await shot(page, `business-${viewport.name}-${lang}`);

        // An emoji reaction by keyboard: focus stays on the emoji chosen.
        const groups = section.getByRole('radiogroup', { name: s.reactGroup });
        const emoji = groups.getByRole('radio').and(page.locator(':enabled')).nth(3);
        await emoji.focus();
        await page.keyboard.press('Space');
        await expect(page.getByText(s.thanks).first()).toBeVisible();
        await expect(emoji).toBeFocused();
        // Arrow keys only move the focus (native radios would rate each emoji passed); Space on
        // the chosen one takes the reaction back (decision 021).
        const wasChecked = await emoji.isChecked();
        await page.keyboard.press('ArrowRight');
        const next = groups.getByRole('radio').and(page.locator(':enabled')).nth(4);
        await expect(next).toBeFocused();
        await expect(next).not.toBeChecked();
        await expect(emoji).toBeChecked({ checked: wasChecked });
        if (wasChecked) {
          await page.keyboard.press('ArrowLeft');
          await expect(emoji).toBeFocused();
          await page.keyboard.press('Space');
          await expect(emoji).not.toBeChecked();
          await expect(emoji).toBeFocused();
        }

        // "Betygsätt" by keyboard: it says "Betyg skickat" and keeps the focus.
        const stars = page.getByRole('radiogroup', { name: s.yourRating });
        const current = await stars.getByRole('radio', { checked: true }).count();
        const pick = current > 0 && (await stars.getByRole('radio', { name: s.stars(4) }).isChecked()) ? 3 : 4;
        const star = stars.getByRole('radio', { name: s.stars(pick) });
        const rate = panel.getByRole('button', { name: s.rate, exact: true });
        // The stars are chosen and the button may be pressed. A CI run once found the button
        // unchanged after Enter (2026-11-28), not seen since in 7 runs under load: so the choice
        // is seen to hold before the press, and the request's answer is part of any failure.
        await star.click();
        await expect(star).toBeChecked();
        await expect(rate).not.toHaveAttribute('aria-disabled');
        await rate.focus();
        const answer = page.waitForResponse((r) => r.url().includes('business.rate'));
        await page.keyboard.press('Enter');
        const res = await answer;
        expect(res.status(), await res.text()).toBe(200);
        const submitted = panel.getByRole('button', { name: s.submitted });
        await expect(submitted).toBeVisible();
        await expect(submitted).toBeFocused();
      });

      test(`${tag}: the review form's clear-stars button and a typed place kept as another place (29.2, 4)`, async ({ page }) => {
        test.setTimeout(90_000);
        const business = await busyBusiness(page);
        const stamp = `${viewport.name}${lang}${Date.now().toString(36)}`;
        await signIn(page, 'sara@demo.recensera.se');
        await page.goto(`/business/${business._id}?lang=${lang}`);
        const section = page.getByRole('region', { name: s.comments });
        await section.getByLabel(s.text).fill(`Ny recension ${stamp}`);

        // Stars chosen, then taken back by a button that says so; focus goes to the stars.
        const formStars = section.getByRole('radiogroup', { name: s.formStars });
        await formStars.getByRole('radio', { name: s.stars(4) }).click();
        const clear = section.getByRole('button', { name: s.clearStars });
        await expect(clear).toBeVisible();
        await shot(page, `form-stars-${viewport.name}-${lang}`);
        await clear.click();
        await expect(clear).toHaveCount(0);
        await expect(formStars.getByRole('radio', { checked: true })).toHaveCount(0);
        await expect(formStars.getByRole('radio').first()).toBeFocused();

        // Typed and left without a pick: the field says it is kept as another place.
        const picker = section.getByRole('combobox', { name: s.place });
        await picker.fill('Umeå Ersboda');
        await page.keyboard.press('Tab');
        await expect(picker).toHaveValue(s.otherPlace('Umeå Ersboda'));

        // A place that is none of the branches, typed and not picked, then "Publicera" pressed
        // straight away: kept, a normal place name of three words.
        const place = 'Uppsala Gottsunda Centrum';
        await picker.fill(place);
        await section.getByRole('button', { name: s.publish }).click();
        await expect(page.getByText(s.posted)).toBeVisible();
        const card = section.getByRole('article').filter({ hasText: stamp });
        await expect(card).toContainText(place);
        await expectAccessible(page, `after posting (${tag})`);

        // Such places show in the branch filter beside the branches, with their public comments,
        // and filter the list (?place=).
        await page.goto(`/business/${business._id}?lang=${lang}`);
        await section.getByRole('combobox', { name: s.branchFilter }).click();
        const option = page.getByRole('option', { name: s.placeOption(place) });
        await expect(option).toBeVisible();
        await option.click();
        await expect(page).toHaveURL(/[?&]place=Uppsala(\+|%20)Gottsunda(\+|%20)Centrum/);
        const cards = section.getByRole('article');
        await expect(cards.filter({ hasText: stamp })).toBeVisible();
        // textContent, which does not depend on layout.
        await expect.poll(async () => (await cards.allTextContents()).every((text) => text.includes(place))).toBe(true);
        await expectAccessible(page, `branch filter at another place (${tag})`);
      });
    });
  }
}

test.describe('tabbing and the login prompt', () => {
  for (const viewport of VIEWPORTS) {
    for (const lang of ['sv', 'en'] as const) {
      test(`${viewport.name}, ${lang}: Tab while the app is still loading keeps its place (29.6)`, async ({ page }) => {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        // The page's scripts wait until the test lets them go: the prerendered copy is on screen.
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route(/\/assets\/.*\.js$/, async (route) => {
          await held;
          await route.continue();
        });
        await page.goto(`/business?lang=${lang}`, { waitUntil: 'commit' });
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        // What has the focus: its tag, link and name (the body: nothing).
        const focused = () =>
          page.evaluate(() => {
            const el = document.activeElement;
            if (!el || el === document.body) return '';
            return `${el.tagName}|${el.getAttribute('href') ?? ''}|${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''}`;
          });
        // Tab past the skip link into the header, as a keyboard user would: on the desktop along the
        // nav to "Kontakt", on the phone to the third stop.
        const stops: string[] = [];
        for (let i = 0; i < 10; i++) {
          await page.keyboard.press('Tab');
          stops.push(await focused());
          if (viewport.name === 'desktop' ? stops.at(-1)?.includes('|/contact|') : stops.length === 3) break;
        }
        const here = stops.at(-1) ?? '';
        expect(here).not.toBe('');
        if (viewport.name === 'desktop') expect(here).toContain('|/contact|');
        release();
        // The app has taken over (the directory's search works), and focus is where it was: the
        // next Tab goes on from there, not from the top of the page.
        await expect(page.getByRole('searchbox', { name: TEXT[lang].search })).toBeEditable();
        await expect.poll(focused).toBe(here);
        await page.keyboard.press('Tab');
        expect(stops).not.toContain(await focused());
        await expectAccessible(page, `directory after tabbing while loading (${viewport.name}, ${lang})`);
      });
    }
  }

  test.describe('the login prompt', () => {
    test.use({ loginPrompt: true });

    for (const [viewport, lang] of VIEWPORTS.flatMap((v) => (['sv', 'en'] as const).map((l) => [v, l] as const))) {
      const s = TEXT[lang];
      test(`${viewport.name}, ${lang}: once per browser, takes no focus, a tap outside closes it (29.9)`, async ({ page, context }) => {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await page.clock.install();
        await page.goto(`/business?lang=${lang}`);
        const search = page.getByRole('searchbox', { name: s.search });
        await expect(search).toBeEditable();
        // Someone typing when it appears goes on typing.
        await search.click();
        await page.keyboard.type('ica');
        await page.clock.fastForward(10_500);
        const prompt = page.getByRole('complementary', { name: s.prompt });
        await expect(prompt).toBeVisible();
        await expect(search).toBeFocused();
        await page.keyboard.type(' maxi');
        await expect(search).toHaveValue('ica maxi');
        await expectAccessible(page, `login prompt (${viewport.name}, ${lang})`);
        await shot(page, `prompt-${viewport.name}-${lang}`);
        // A tap outside it closes it.
        await page.getByRole('heading', { level: 1 }).click();
        await expect(prompt).toHaveCount(0);

        // A link opened in a new tab of the same browser: not asked again.
        const tab = await context.newPage();
        await tab.clock.install();
        await tab.goto(`/?lang=${lang}`);
        await expect(tab.getByRole('heading', { level: 1 })).toBeVisible();
        await tab.clock.fastForward(12_000);
        await expect(tab.getByRole('complementary', { name: s.prompt })).toHaveCount(0);
        await tab.close();
      });
    }
  });
});
