import { expect, expectAccessible, test } from './fixtures';

type RestBranch = { location: string; town: string; lat: number | null };
type RestBusiness = { _id: string; title: string; branches: RestBranch[] };

// A 1×1 PNG for every map tile: no request leaves the test machine.
const TILE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 800 },
]) {
  for (const lang of ['sv', 'en'] as const) {
    test(`${viewport.name} ${lang}: opening hours, the branch map (tiles stubbed) and the city filter by town`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      let tiles = 0;
      await page.route('https://tile.openstreetmap.org/**', (route) => {
        tiles++;
        return route.fulfill({ status: 200, contentType: 'image/png', body: TILE });
      });
      // Wednesday 25 November 2026, 12:00 in Stockholm: the grocery chains are open until 22:00.
      await page.clock.setFixedTime(new Date('2026-11-25T11:00:00Z'));
      const businesses = (await (await page.request.get('/api/business')).json()) as RestBusiness[];
      const ica = businesses.find((b) => b.title === 'ICA Maxi')!;
      await page.goto(`/business/${ica._id}${lang === 'en' ? '?lang=en' : ''}`);
      await expect(page.getByTestId('open-status').first()).toHaveText(lang === 'sv' ? 'Öppet nu · stänger 22:00' : 'Open now · closes 22:00');
      const map = page.getByRole('region', { name: lang === 'sv' ? 'Karta över ICA Maxi' : 'Map of ICA Maxi' });
      // Leaflet loads as its place nears the viewport (client/features/business/branches-map.tsx).
      await page.getByTestId('map-slot').scrollIntoViewIfNeeded();
      await expect(map).toBeVisible();
      await expect.poll(() => tiles).toBeGreaterThan(0);
      await expectAccessible(page, 'business page with hours and map');

      // Malmö finds every business with a branch in Malmö, its areas included.
      const inMalmo = businesses.filter((b) => b.branches.some((br) => br.town === 'Malmö')).map((b) => b.title);
      expect(businesses.some((b) => b.branches.some((br) => br.location === 'Malmö Hyllie'))).toBe(true);
      await page.goto(`/business?city=Malm%C3%B6${lang === 'en' ? '&lang=en' : ''}`);
      const list = page.getByRole('list', { name: lang === 'sv' ? 'Butiker' : 'Stores' });
      await expect(list.getByRole('listitem')).toHaveCount(inMalmo.length);
      for (const title of inMalmo) await expect(list.getByRole('heading', { name: title, exact: true })).toBeVisible();
      await expectAccessible(page, 'directory filtered by town');
    });
  }
}

for (const { name, width, lang } of [
  { name: 'desktop sv', width: 1280, lang: 'sv' as const },
  { name: 'phone en', width: 375, lang: 'en' as const },
]) {
  test(`${name}: "Närmast mig" lists the nearest first, a page of cards at a time`, async ({ page, context }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    // Malmö centre: the businesses with a branch in Malmö are the nearest.
    await context.grantPermissions(['geolocation']);
    await context.setGeolocation({ latitude: 55.605, longitude: 13.0038 });
    const businesses = (await (await page.request.get('/api/business')).json()) as RestBusiness[];
    const inMalmo = businesses.filter((b) => b.branches.some((br) => br.town === 'Malmö')).map((b) => b.title);
    const positioned = businesses.filter((b) => b.branches.some((br) => br.lat !== null)).length;
    expect(positioned).toBeGreaterThan(24);
    const asked: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/trpc/')) asked.push(url.pathname);
    });
    await page.goto(`/business${lang === 'en' ? '?lang=en' : ''}`);
    await page.getByRole('button', { name: lang === 'sv' ? 'Närmast mig' : 'Nearest me' }).click();
    const list = page.getByRole('list', { name: lang === 'sv' ? 'Butiker' : 'Stores' });
    await expect(page.getByText(lang === 'sv' ? 'Din position stannar i webbläsaren' : 'Your position stays in your browser')).toBeVisible();
    // The first page: 24 cards, the nearest first; the next page brings the rest.
    // (The list in its usual order stays until the nearest arrive: it starts with the suggestion box.)
    const first = list.getByRole('listitem').first().getByRole('heading');
    await expect.poll(async () => inMalmo.includes((await first.textContent())?.trim() ?? '')).toBe(true);
    await expect(list.getByRole('listitem')).toHaveCount(24);
    // Near the end of the list the next page comes by itself, as the directory's does ("Visa fler" too).
    await list.getByRole('listitem').last().scrollIntoViewIfNeeded();
    await expect(list.getByRole('listitem')).toHaveCount(positioned);
    // Cards come a page of ids at a time; no reply holds every card.
    expect(asked.filter((p) => p.includes('business.directoryCards')).length).toBeGreaterThanOrEqual(2);
    expect(asked.flatMap((p) => p.slice('/trpc/'.length).split(',')).filter((procedure) => procedure === 'business.directory')).toEqual([]);
    await expectAccessible(page, 'directory, nearest first');
  });
}
