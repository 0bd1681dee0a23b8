import sharp from 'sharp';
import { demoPassword, expect, expectAccessible, test } from './fixtures';

/** A picture that says which it is, so the lightbox can be checked by its size. */
const picture = (colour: string, width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

test.describe("a business's photo gallery", () => {
  test('comments with pictures fill "Bilder (n)"; the lightbox moves by key and button and leads to the comment', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const api = page.request;
    const businesses = (await (await api.get('/api/business')).json()) as { _id: string; title: string }[];
    const business = businesses.find((b) => b.title === 'Apoteket');
    if (!business) throw new Error('demo business Apoteket missing');
    const before = ((await (await api.get(`/api/business/${business._id}/photos`)).json()) as { total: number }).total;

    const login = await api.post('/api/users/logIn', { data: { email: 'oskar@demo.recensera.se', password: demoPassword() } });
    expect(login.ok()).toBe(true);
    const stamp = Date.now();
    const posted: string[] = [];
    for (const [colour, width, height] of [
      ['#2a6f97', 900, 600],
      ['#e07a5f', 600, 900],
    ] as const) {
      const res = await api.post(`/api/comment/create/${business._id}`, {
        multipart: {
          text: `Bildbevis ${posted.length + 1} (${stamp}) från disken`,
          businessLocation: 'Lund',
          image: { name: 'bild.png', mimeType: 'image/png', buffer: await picture(colour, width, height) },
        },
      });
      expect(res.status()).toBe(201);
      posted.push(((await res.json()) as { _id: string })._id);
    }
    await api.post('/api/users/logOut');

    await page.goto(`/business/${business._id}`);
    const gallery = page.getByRole('region', { name: `Bilder (${before + 2})` });
    await expect(gallery).toBeVisible();
    // Newest first: the second picture posted is the first shown.
    await gallery.getByRole('button', { name: /^Bild 1 av \d+, från Oskar/ }).click();
    const lightbox = page.getByRole('dialog', { name: `Bild 1 av ${before + 2}` });
    await expect(lightbox).toBeVisible();
    await expect(lightbox.getByRole('img', { name: /^Bild från Oskar/ }).first()).toHaveAttribute('width', '600');
    await expect(lightbox.getByRole('button', { name: 'Föregående bild' })).toBeDisabled();
    await expectAccessible(page, 'lightbox');

    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('dialog', { name: `Bild 2 av ${before + 2}` })).toBeVisible();
    await page.getByRole('button', { name: 'Föregående bild' }).click();
    await expect(page.getByRole('dialog', { name: `Bild 1 av ${before + 2}` })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await gallery.getByRole('button', { name: /^Bild 2 av/ }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Till kommentaren' }).click();
    await expect(page).toHaveURL(new RegExp(`/comment/${posted[0]}$`));
    await expect(page.getByText(`Bildbevis 1 (${stamp}) från disken`)).toBeVisible();
  });
});
