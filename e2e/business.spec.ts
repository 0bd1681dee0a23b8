import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { demoPassword, expect, expectAccessible, test } from './fixtures';

/** Logs in through the login page the way a person does (e-mail choice, then the form). */
async function logIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('E-post').fill(email);
  await page.getByLabel('Lösenord', { exact: true }).fill(demoPassword());
  await page.getByRole('button', { name: 'Logga in', exact: true }).click();
  await expect(page).toHaveURL(/\/user$/);
}

const cards = (page: Page) => page.getByRole('list', { name: 'Butiker' }).getByRole('listitem');
const card = (page: Page, title: string) => cards(page).filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const heart = (page: Page, title: string) => page.getByRole('button', { name: `Favorit: ${title}` });
const favoritesLink = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Favoriter: \d+$/ });
const yourRating = (page: Page) => page.getByRole('radiogroup', { name: 'Ditt betyg' });
/** The business's rating panel; the branch list shows each branch's rating with the same wording. */
const ratingPanel = (page: Page, name = 'Betyg') => page.getByRole('region', { name, exact: true });
const search = (page: Page) => page.getByRole('searchbox', { name: 'Sök på namn, kategori, ort eller beskrivning' });

async function png(color: string, width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

test.describe('business directory, business page, favourites and management', () => {
  // Each test is a whole journey (several pages, uploads, axe scans), longer than the default allows.
  test.describe.configure({ timeout: 150_000 });

  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('a visitor browses and searches the directory; heart and rating ask to log in', async ({ page, baseURL }) => {
    await page.goto('/business');
    await expect(page.getByRole('heading', { level: 1, name: 'Alla butiker' })).toBeVisible();
    await expect(search(page)).toHaveAttribute('placeholder', 'Sök din butik');
    await expect(page.getByText('Bilder och ikoner på företagen visas endast för igenkänning.')).toBeVisible();
    await expect(cards(page).first().getByRole('heading')).toHaveText('Lägg till ny');
    await expect(page.getByText(/^Visar 24 av \d+$/)).toBeVisible();
    // The next page is asked for only now (business.directoryPage): the first reply held 24 cards.
    const nextPage = page.waitForResponse((res) => res.url().includes('/trpc/business.directoryPage') && res.url().includes('cursor'));
    await page.getByRole('button', { name: 'Visa fler' }).click();
    expect((await nextPage).status()).toBe(200);
    await expect(page.getByText(/^Visar (\d+) av \1$/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Visa fler' })).toHaveCount(0);

    // Pictures below the fold wait until scrolled near.
    const lazy = page.locator('article img[loading="lazy"]');
    expect(await lazy.count()).toBeGreaterThan(0);
    await expect(lazy.first()).toHaveAttribute('width', /\d+/);

    await search(page).fill('åhléns');
    await expect(cards(page)).toHaveCount(1);
    await expect(card(page, 'ÅHLÉNS')).toBeVisible();
    await search(page).fill('ica');
    await expect(cards(page).getByRole('heading', { name: 'ICA Maxi' })).toBeVisible();
    await expect(cards(page).getByRole('heading', { name: 'Coop' })).toHaveCount(0);
    await search(page).fill('ingen sådan butik');
    await expect(page.getByText('Inget hittades för din sökning')).toBeVisible();
    // No list under it (issue 31.4).
    await expect(cards(page)).toHaveCount(0);
    await expectAccessible(page, 'directory with a search without match');
    await search(page).fill('');
    await expect(page.getByText('Inget hittades för din sökning')).toHaveCount(0);

    await heart(page, 'Akademibokhandeln').click();
    await expect(page.getByText('Logga in för att ändra favoritstatus')).toBeVisible();
    await expect(heart(page, 'Akademibokhandeln')).toHaveAttribute('aria-pressed', 'false');
    // The notice's own login button comes back here afterwards.
    await page.getByRole('button', { name: 'Logga in', exact: true }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Fbusiness$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/business$/);

    await card(page, 'Akademibokhandeln').getByRole('link').click();
    await expect(page).toHaveURL(/\/business\/[\w-]+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Akademibokhandeln' })).toBeVisible();
    // The business's own rating (each branch's is in the branch list).
    await expect(ratingPanel(page).getByText(/^\d,\d av 5 · \d+ betyg( · \d+ recension(er)?)?$/)).toBeVisible();
    await yourRating(page).getByRole('radio', { name: '4 stjärnor' }).click();
    await page.getByRole('button', { name: 'Betygsätt' }).click();
    await expect(page.getByText('Logga in för att sätta betyg')).toBeVisible();
    await expectAccessible(page, 'business page');
    await page.getByRole('link', { name: 'Gå tillbaka' }).click();
    await expect(page).toHaveURL(/\/business$/);

    // An unknown business is the friendly not-found page, and the server says 404 as well.
    const missing = await page.goto('/business/no-such-business');
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Sidan hittades inte' })).toBeVisible();
    await expect(page.getByText(/Status: 404/)).toHaveCount(0);
    expect((await page.goto('/no/such/page'))?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Sidan hittades inte' })).toBeVisible();

    await page.context().addCookies([{ name: 'lang', value: 'en', url: baseURL }]);
    await page.goto('/business');
    await expect(page.getByRole('searchbox', { name: 'Search by name, category, town or description' })).toHaveAttribute('placeholder', 'Search your Store');
    await expect(page.getByRole('list', { name: 'Stores' }).getByRole('listitem').first().getByRole('heading')).toHaveText('Add New');
  });

  test('read-only stars show half stars; the rating widget is right for screen readers and the keyboard', async ({ page }) => {
    const list = (await (await page.request.get('/api/business')).json()) as Array<{ _id: string; title: string; rate: number; ratingCount: number }>;
    const half = list.find((b) => b.ratingCount > 0 && Math.round(b.rate * 2) % 2 === 1 && !['IKEA', 'Biltema', 'Akademibokhandeln'].includes(b.title));
    expect(half, 'a demo business with a half-star average').toBeTruthy();
    const average = new Intl.NumberFormat('sv-SE', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(half!.rate);
    const whole = Math.floor(Math.round(half!.rate * 2) / 2);

    // On its card in the directory and on its page: whole stars, one half star, the figure in the name.
    await page.goto('/business');
    const onCard = card(page, half!.title).getByRole('img', { name: `Betyg för ${half!.title}: ${average} av 5 stjärnor` });
    await expect(onCard).toBeVisible();
    await expect(onCard.locator('[data-fill="1"]')).toHaveCount(whole);
    await expect(onCard.locator('[data-fill="0.5"]')).toHaveCount(1);
    await page.goto(`/business/${half!._id}`);
    const stars = page.getByRole('img', { name: `Betyg för ${half!.title}: ${average} av 5 stjärnor` });
    await expect(stars).toBeVisible();
    await expect(stars.locator('[data-fill="0.5"]')).toHaveCount(1);
    await stars.screenshot({ path: test.info().outputPath('half-stars.png') });

    // Nothing chosen yet: no star is checked (Ark UI alone reports star 1).
    const radios = yourRating(page).getByRole('radio');
    await expect(radios).toHaveCount(5);
    await expect(yourRating(page).locator('[role="radio"][aria-checked="true"]')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Betygsätt' })).toBeDisabled();

    // A click chooses; the arrow keys then move the choice, though the pointer is still there.
    await yourRating(page).getByRole('radio', { name: '4 stjärnor' }).click();
    await expect(yourRating(page).getByRole('radio', { name: '4 stjärnor' })).toBeChecked();
    await page.keyboard.press('ArrowLeft');
    await expect(yourRating(page).getByRole('radio', { name: '3 stjärnor' })).toBeChecked();
    await expect(yourRating(page).getByRole('radio', { name: '3 stjärnor' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(yourRating(page).getByRole('radio', { name: '5 stjärnor' })).toBeChecked();
    await page.keyboard.press('Home');
    await expect(yourRating(page).getByRole('radio', { name: '1 stjärna' })).toBeChecked();
    await page.keyboard.press('ArrowLeft');
    await expect(yourRating(page).getByRole('radio', { name: '1 stjärna' })).toBeChecked();
    await expect(yourRating(page).locator('[role="radio"][aria-checked="true"]')).toHaveCount(1);

    // Visitors who press Rate are asked to log in, and come back to this business after it.
    await page.getByRole('button', { name: 'Betygsätt' }).click();
    await expect(page.getByText('Logga in för att sätta betyg')).toBeVisible();
    await page.getByRole('button', { name: 'Logga in', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/login\\?next=%2Fbusiness%2F${half!._id}$`));
    await page.getByLabel('E-post').fill('oskar@demo.recensera.se');
    await page.getByLabel('Lösenord', { exact: true }).fill(demoPassword());
    await page.getByRole('button', { name: 'Logga in', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/business/${half!._id}$`));
    await expect(page.getByRole('heading', { level: 1, name: half!.title })).toBeVisible();
  });

  test('a user favourites two businesses, rates one and unfavourites one', async ({ page }) => {
    await logIn(page, 'oskar@demo.recensera.se');
    await page.goto('/business');
    await expect(favoritesLink(page)).toHaveAccessibleName('Favoriter: 0');

    await heart(page, 'IKEA').click();
    await expect(heart(page, 'IKEA')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText('Favoriten har lagts till').first()).toBeVisible();
    await heart(page, 'Biltema').click();
    await expect(heart(page, 'Biltema')).toHaveAttribute('aria-pressed', 'true');
    await expect(favoritesLink(page)).toHaveAccessibleName('Favoriter: 2');
    await expect(favoritesLink(page)).toContainText('2');

    await favoritesLink(page).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Mina favoriter' })).toBeVisible();
    const favorites = page.getByRole('main').getByRole('listitem');
    await expect(favorites).toHaveCount(2);
    await expect(favorites.getByRole('heading', { name: 'IKEA' })).toBeVisible();
    await expect(favorites.getByRole('heading', { name: 'Biltema' })).toBeVisible();
    await expectAccessible(page, 'favourites page');

    await favorites.getByRole('link', { name: 'IKEA' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'IKEA' })).toBeVisible();
    const id = page.url().split('/').pop() as string;
    const before = (await (await page.request.get(`/api/business/${id}`)).json()) as { rate: number; ratingCount: number };
    const expected = (before.rate * before.ratingCount + 5) / (before.ratingCount + 1);
    const average = new Intl.NumberFormat('sv-SE', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(expected);
    await yourRating(page).getByRole('radio', { name: '5 stjärnor' }).click();
    const rate = page.getByRole('button', { name: 'Betygsätt' });
    await rate.click();
    await expect(page.getByRole('button', { name: 'Betyg skickat' })).toBeDisabled();
    await expect(ratingPanel(page).getByText(`${average} av 5 · ${before.ratingCount + 1} betyg`)).toBeVisible();
    await expect(heart(page, 'IKEA')).toHaveAttribute('aria-pressed', 'true');

    await favoritesLink(page).click();
    await favorites.filter({ hasText: 'Biltema' }).getByRole('button', { name: 'Favorit: Biltema' }).click();
    await expect(page.getByText('Favoriten har tagits bort').first()).toBeVisible();
    await expect(favorites).toHaveCount(1);
    await expect(favoritesLink(page)).toHaveAccessibleName('Favoriter: 1');
    await page.goto('/business');
    await expect(heart(page, 'Biltema')).toHaveAttribute('aria-pressed', 'false');
    await expect(heart(page, 'IKEA')).toHaveAttribute('aria-pressed', 'true');
  });

  test('an admin adds a business with image, icon and two branches, edits it and deletes it', async ({ page }) => {
    await logIn(page, 'admin@demo.recensera.se');
    await page.goto('/business-mng');
    await expect(page.getByRole('heading', { level: 1, name: 'Företagshantering' })).toBeVisible();
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Lägg till företag' }) });

    await form.getByRole('button', { name: 'Lägg till företag' }).click();
    // Every missing field says so at the first submit (the rate is optional), in the app's words.
    await expect(form.getByText('*Obligatoriskt')).toHaveCount(4);
    for (const label of ['Namn', 'Kategori', 'Beskrivning', 'Ort']) {
      await expect(form.getByLabel(label, { exact: true })).toHaveAttribute('aria-invalid', 'true');
    }
    await form.getByLabel('Namn').fill('X');
    await form.getByLabel('Namn').blur();
    await expect(form.getByText('Namnet är för kort!')).toBeVisible();

    await form.getByLabel('Namn').fill('Testbutiken Ö');
    await form.getByLabel('Kategori', { exact: true }).fill('Provsmakning');
    await form.getByLabel('Kategori på engelska').fill('Tastings');
    await form.getByLabel('Beskrivning', { exact: true }).fill('En butik som bara finns i testerna.\nÖppet dygnet runt.');
    await form.getByLabel('Beskrivning på engelska (valfritt)').fill('A shop that only exists in the tests.\nOpen around the clock.');
    await form.getByRole('radiogroup', { name: 'Ditt betyg (valfritt)' }).getByRole('radio', { name: '4 stjärnor' }).click();
    await form.getByLabel('Bild', { exact: true }).setInputFiles({ name: 'butik.png', mimeType: 'image/png', buffer: await png('#2a6f97', 1200, 800) });
    await expect(form.getByRole('img', { name: 'Förhandsvisning av bilden' })).toBeVisible();
    await form.getByLabel('Ikon', { exact: true }).setInputFiles({ name: 'ikon.png', mimeType: 'image/png', buffer: await png('#e07a5f', 300, 300) });
    await expect(form.getByRole('img', { name: 'Förhandsvisning av ikonen' })).toBeVisible();
    await form.getByLabel('Ort').fill('Malmö');
    await form.getByLabel('Adress (valfritt)').fill('Södra Förstadsgatan 1');
    await form.getByRole('button', { name: 'Lägg till filial' }).click();
    await form.getByLabel('Ort').nth(1).fill('Kiruna');
    await expectAccessible(page, 'business management with a filled form');
    await form.getByRole('button', { name: 'Lägg till företag' }).click();
    await expect(page.getByText('Företaget har lagts till!')).toBeVisible();
    await expect(form.getByLabel('Namn')).toHaveValue('');

    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Testbutiken Ö' }) });
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Provsmakning' })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Malmö', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Södra Förstadsgatan 1' })).toBeVisible();
    await expect(row.locator('img')).toHaveCount(2);

    await row.getByRole('button', { name: 'Redigera Testbutiken Ö' }).click();
    const dialog = page.getByRole('dialog', { name: 'Uppdatera företag' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Ort')).toHaveCount(2);
    await expectAccessible(page, 'update business modal');
    await dialog.getByLabel('Kategori', { exact: true }).fill('Smakprov');
    await dialog.getByRole('button', { name: 'Ta bort filial 1' }).click();
    await dialog.getByRole('button', { name: 'Spara ändringar' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('Företaget har uppdaterats!')).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Smakprov' })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Kiruna' })).toBeVisible();
    await expect(row.getByRole('cell', { name: '-', exact: true })).toBeVisible();

    await page.goto('/business');
    await search(page).fill('testbutiken ö');
    await expect(cards(page)).toHaveCount(1);
    await card(page, 'Testbutiken Ö').getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Testbutiken Ö' })).toBeVisible();
    await expect(page.getByText('Öppet dygnet runt.')).toBeVisible();
    // The admin's rate is the admin's own rating: one rating, counted.
    await expect(ratingPanel(page).getByText('4,0 av 5 · 1 betyg')).toBeVisible();

    await page.goto('/business-mng');
    const suggestionRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Lägg till ny' }) });
    await expect(suggestionRow.getByRole('button', { name: /^Ta bort/ })).toHaveCount(0);
    await row.getByRole('button', { name: 'Ta bort Testbutiken Ö' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Ta bort företaget?' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Ta bort', exact: true }).click();
    await expect(page.getByText('Företaget har tagits bort!')).toBeVisible();
    await expect(row).toHaveCount(0);
    expect((await page.request.get('/api/business?search=testbutiken')).ok()).toBe(true);
    expect(await (await page.request.get('/api/business?search=testbutiken')).json()).toEqual([]);
  });

  test('the admin business table is in Swedish alphabetical order and can be searched', async ({ page }) => {
    await logIn(page, 'admin@demo.recensera.se');
    await page.goto('/business-mng');
    await expect(page.getByRole('rowheader', { name: 'Apoteket' })).toBeVisible();
    const names = (await page.getByRole('rowheader').allTextContents()).filter((name) => name !== 'Lägg till ny');
    expect(names.length).toBeGreaterThan(10);
    expect(names).toEqual([...names].sort(new Intl.Collator('sv').compare));
    await page.getByLabel('Sök bland företagen').fill('APOTEK');
    await expect(page.getByRole('rowheader')).toHaveText(['Apotek Hjärtat', 'Apoteket', 'Kronans Apotek']);
    await expect(page.getByRole('status').filter({ hasText: /^3 av \d+ företag$/ })).toBeVisible();
    await page.getByLabel('Sök bland företagen').fill('finns inte någonstans');
    await expect(page.getByText('Inga företag matchar sökningen.')).toBeVisible();
    await expectAccessible(page, 'business table searched');
  });

  test('a business nobody rated says so; the suggestion box has no rating; English mode is English', async ({ page, baseURL }) => {
    const login = await page.request.post('/api/users/logIn', { data: { email: 'admin@demo.recensera.se', password: demoPassword() } });
    const { token } = (await login.json()) as { token: string };
    const created = await page.request.post('/api/business/upload', {
      headers: { authorization: `Bearer ${token}` },
      multipart: {
        title: 'Obetygsatt Bod',
        category: 'Livsmedel',
        description: 'En liten bod med grönsaker från trakten.',
        descriptionEn: 'A small stall with vegetables from nearby farms.',
        'branches[0][location]': 'Ystad',
      },
    });
    expect(created.status()).toBe(201);
    const { _id: id } = (await created.json()) as { _id: string };
    await page.context().clearCookies();

    await page.goto(`/business/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Obetygsatt Bod' })).toBeVisible();
    await expect(ratingPanel(page).getByText('Inga betyg än')).toBeVisible();
    await expect(page.getByRole('img', { name: /^Betyg för Obetygsatt Bod/ })).toHaveCount(0);
    await expect(page.getByText('Livsmedel')).toBeVisible();
    await expect(page.getByText('En liten bod med grönsaker från trakten.')).toBeVisible();

    await page.goto('/business');
    await search(page).fill('obetygsatt');
    await expect(card(page, 'Obetygsatt Bod').getByText('Inga betyg än')).toBeVisible();
    await search(page).fill('');
    const box = card(page, 'Lägg till ny');
    await expect(box).toBeVisible();
    await expect(box.getByRole('img', { name: /^Betyg för/ })).toHaveCount(0);
    await expect(box.getByRole('button', { name: /^Favorit/ })).toHaveCount(0);
    await expect(box.getByText('Inga betyg än')).toHaveCount(0);
    await box.getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Lägg till ny' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Betyg', exact: true })).toHaveCount(0);
    await expect(page.getByRole('radiogroup', { name: 'Ditt betyg' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Favorit/ })).toHaveCount(0);
    await expect(page.getByText('Hela Sverige').first()).toBeVisible();

    // English: the server renders the page in English, the category and description too.
    await page.context().addCookies([{ name: 'lang', value: 'en', url: baseURL }]);
    const html = await (await page.request.get(`/business/${id}`)).text();
    expect(html).toContain('No ratings yet');
    expect(html).toContain('Groceries');
    expect(html).toContain('A small stall with vegetables from nearby farms.');
    await page.goto(`/business/${id}`);
    await expect(ratingPanel(page, 'Rating').getByText('No ratings yet')).toBeVisible();
    await expect(page.getByText('Groceries')).toBeVisible();
    await expect(page.getByText('A small stall with vegetables from nearby farms.')).toBeVisible();
    await page.goto('/business');
    const englishCards = page.getByRole('list', { name: 'Stores' }).getByRole('listitem');
    const suggestion = englishCards.filter({ has: page.getByRole('heading', { name: 'Add New', exact: true }) });
    await expect(suggestion.getByText(/^Missing a business on/)).toBeVisible();
    await suggestion.getByRole('link').click();
    await expect(page.getByText('All of Sweden').first()).toBeVisible();
    await expect(page.getByText('Suggestions')).toBeVisible();
    await expectAccessible(page, 'suggestion box in English');
  });

  test('pages work at phone width in English', async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.context().addCookies([{ name: 'lang', value: 'en', url: baseURL }]);
    await page.request.post('/api/users/logIn', { data: { email: 'admin@demo.recensera.se', password: demoPassword() } });
    await page.goto('/business');
    await expect(page.getByRole('heading', { level: 1, name: 'All Stores' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.goto('/business-mng');
    await expect(page.getByRole('heading', { level: 1, name: 'Business management' })).toBeVisible();
    await expect(page.getByRole('rowheader', { name: 'Add New' })).toBeVisible();
    const mngOverflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(mngOverflow).toBeLessThanOrEqual(0);
    await expectAccessible(page, 'business management at 375 px');
  });
});
