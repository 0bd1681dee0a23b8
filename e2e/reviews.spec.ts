import sharp from 'sharp';
import { demoPassword, expect, expectAccessible, test } from './fixtures';

const png = () =>
  sharp({ create: { width: 800, height: 600, channels: 3, background: '#2a6f97' } })
    .png()
    .toBuffer();

type Words = {
  text: string;
  location: string;
  branch: string;
  gallery: RegExp;
  photoOne: RegExp;
  toComment: string;
  twoStars: RegExp;
  post: string;
  photos: string;
  photoLabel: string;
  posted: string;
  starsTwo: string;
  sortLabel: string;
  lowest: string;
};
const sv: Words = {
  text: 'Din kommentar',
  location: 'Butikens plats',
  branch: 'Göteborg',
  gallery: /^Bilder \(\d+\)$/,
  photoOne: /^Bild 1 av \d+, från Oskar/,
  toComment: 'Till kommentaren',
  twoStars: /^2 stjärnor: (\d+) betyg/,
  post: 'Publicera',
  photos: 'Med foton',
  photoLabel: 'Lägg till foto',
  posted: 'Tack! Din kommentar är publicerad.',
  starsTwo: '2 stjärnor',
  sortLabel: 'Sortera',
  lowest: 'Lägst betyg',
};
const en: Words = {
  text: 'Your comment',
  location: 'Store location',
  branch: 'Örebro',
  gallery: /^Photos \(\d+\)$/,
  photoOne: /^Photo 1 of \d+, from /,
  toComment: 'Go to the comment',
  twoStars: /^2 stars: (\d+) ratings?/,
  post: 'Post',
  photos: 'With photos',
  photoLabel: 'Add photo',
  posted: 'Thank you! Your comment is posted.',
  starsTwo: '2 stars',
  sortLabel: 'Sort',
  lowest: 'Lowest rating',
};

for (const { lang, width, words } of [
  { lang: 'sv', width: 1280, words: sv },
  { lang: 'en', width: 375, words: en },
] as const) {
  test(`stars with the words, the breakdown and the filters (${lang}, ${width} px)`, async ({ page, context, baseURL }) => {
    await page.setViewportSize({ width, height: 900 });
    if (lang === 'en') await context.addCookies([{ name: 'lang', value: 'en', url: baseURL ?? 'http://127.0.0.1' }]);
    const api = page.request;
    const businesses = (await (await api.get('/api/business')).json()) as { _id: string; title: string }[];
    const business = businesses.find((b) => b.title === (lang === 'sv' ? 'Clas Ohlson' : 'Circle K'));
    if (!business) throw new Error('demo business missing');
    const member = lang === 'sv' ? 'oskar@demo.recensera.se' : 'admin@demo.recensera.se';
    expect((await api.post('/api/users/logIn', { data: { email: member, password: demoPassword() } })).ok()).toBe(true);
    // Any earlier rating of theirs is taken back, so the two-star bar moves by exactly one.
    expect((await api.post(`/api/business/addRate/${business._id}`, { data: { rate: null } })).ok()).toBe(true);

    await page.goto(`/business/${business._id}`);
    const bar = page.getByRole('link', { name: words.twoStars });
    // The bar's name is its text, visible and hidden: "2 stjärnor: 3 betyg, 43 %".
    const before = Number((await bar.textContent())?.match(words.twoStars)?.[1]);

    const text = `Två stjärnor och ett foto (${Date.now()})`;
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: words.post, exact: true }) });
    await form.getByLabel(words.text).fill(text);
    // The branch is chosen from the business's list (the combobox narrows it as one types).
    const picker = form.getByRole('combobox', { name: words.location });
    await picker.fill(words.branch.slice(0, 3).toLowerCase());
    await page.getByRole('option', { name: words.branch }).click();
    await expect(picker).toHaveValue(words.branch);
    await form.getByRole('radio', { name: words.starsTwo }).click();
    await form.getByLabel(words.photoLabel).setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: await png() });
    await expect(form.locator('img').first()).toBeVisible();
    await expectAccessible(page, 'comment form with stars');
    await form.getByRole('button', { name: words.post, exact: true }).click();
    await expect(page.getByText(words.posted)).toBeVisible();

    // The breakdown moved: one more two-star rating.
    await expect(bar).toHaveAccessibleName(new RegExp(`^${words.starsTwo}: ${before + 1} `));

    // The bar is a filter link; "with photos" narrows further; the new comment is among them.
    await bar.click();
    await expect(page).toHaveURL(/[?&]stars=2(&|#|$)/);
    await page.getByRole('button', { name: words.photos }).click();
    await expect(page).toHaveURL(/photos=1/);
    const comments = page.locator('#comments');
    await expect(comments.getByText(text)).toBeVisible();
    await expect(comments.getByRole('img', { name: new RegExp(lang === 'sv' ? 'gav 2 av 5 stjärnor' : 'gave 2 of 5 stars') }).first()).toBeVisible();
    await expectAccessible(page, 'filtered comments');
    await expect(comments.getByRole('heading', { name: new RegExp(words.branch) }).first()).toBeVisible();

    // The gallery shows the new photo first; its lightbox leads to the comment, and Back returns.
    const gallery = page.getByRole('region', { name: words.gallery });
    await gallery.getByRole('button', { name: words.photoOne }).click();
    await page.getByRole('dialog').getByRole('link', { name: words.toComment }).click();
    await expect(page).toHaveURL(/\/comment\//);
    await expect(page.getByText(text)).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/stars=2/);
    await expect(page).toHaveURL(/photos=1/);

    // Another order through the select, then away and Back: the page shows the same list.
    await comments.getByRole('combobox', { name: words.sortLabel }).click();
    await page.getByRole('option', { name: words.lowest }).click();
    await expect(page).toHaveURL(/sort=lowest/);
    await page.goto('/business');
    await page.goBack();
    await expect(page).toHaveURL(/stars=2/);
    await expect(page).toHaveURL(/photos=1/);
    await expect(page).toHaveURL(/sort=lowest/);
    await expect(page.locator('#comments').getByText(text)).toBeVisible();
    await expect(page.getByRole('button', { name: words.photos })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('#comments').getByRole('combobox', { name: words.sortLabel })).toContainText(words.lowest);
  });
}
