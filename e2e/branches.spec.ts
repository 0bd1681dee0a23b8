import { demoPassword, expect, expectAccessible, test } from './fixtures';

type RestBranch = { _id: string; location: string; rate?: number | null; ratingCount?: number };
type RestBusiness = { _id: string; title: string; isSuggestionBox: boolean; branches: RestBranch[] };

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 800 },
]) {
  test(`${viewport.name}: a comment at a branch picked from the list, the branch filter and the branch's rating`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const stamp = `${viewport.name}${Date.now().toString(36)}`;
    const businesses = (await (await page.request.get('/api/business')).json()) as RestBusiness[];
    const business = businesses.find((b) => !b.isSuggestionBox && b.branches.length >= 3)!;
    const [branch, other] = business.branches;

    const login = await page.request.post('/api/users/logIn', { data: { email: 'sara@demo.recensera.se', password: demoPassword() } });
    expect(login.ok()).toBe(true);
    // Sara's star rating is what her branch's average counts.
    const { token } = (await login.json()) as { token: string };
    const rated = await page.request.post(`/api/business/addRate/${business._id}`, { data: { rate: 4 }, headers: { authorization: `Bearer ${token}` } });
    expect(rated.ok()).toBe(true);
    await page.goto(`/business/${business._id}`);
    const section = page.getByRole('region', { name: 'Kommentarer' });

    // Typing narrows the branches; "Annan plats…" stays offered.
    await section.getByLabel('Din kommentar').fill(`Om filialen ${stamp}`);
    const picker = section.getByRole('combobox', { name: 'Butikens plats' });
    await picker.fill(branch.location.slice(0, 4).toLowerCase());
    await expect(page.getByRole('option', { name: branch.location })).toBeVisible();
    await expect(page.getByRole('option', { name: other.location })).toHaveCount(0);
    await expect(page.getByRole('option', { name: 'Annan plats…' })).toBeVisible();
    await expectAccessible(page, 'with the branch list open');
    await page.getByRole('option', { name: branch.location }).click();
    await expect(picker).toHaveValue(branch.location);
    await section.getByRole('button', { name: 'Publicera' }).click();
    await expect(page.getByText('Tack! Din kommentar är publicerad.')).toBeVisible();
    const card = section.getByRole('article').filter({ hasText: stamp });
    await expect(card.getByRole('heading', { name: new RegExp(branch.location) })).toBeVisible();

    // The filter beside the search: only that branch's comments, in the URL.
    await section.getByRole('combobox', { name: 'Filial' }).click();
    await page.getByRole('option', { name: other.location }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]branch=${other._id}`));
    await expect(section.getByRole('article').filter({ hasText: stamp })).toHaveCount(0);
    await section.getByRole('combobox', { name: 'Filial' }).click();
    await page.getByRole('option', { name: branch.location }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]branch=${branch._id}`));
    await expect(card).toBeVisible();
    for (const heading of await section.getByRole('article').getByRole('heading', { level: 3 }).allTextContents()) {
      expect(heading).toContain(branch.location);
    }
    // Combined with the search, and kept over a reload.
    await section.getByRole('searchbox').fill(stamp);
    await expect(page).toHaveURL(new RegExp(`q=${stamp}`));
    await page.reload();
    await expect(section.getByRole('article')).toHaveCount(1);
    await expect(section.getByRole('article').first()).toContainText(stamp);
    await expectAccessible(page, 'filtered by branch');

    // The branch list shows the branch's own average and count (Sara's 4 stars among them).
    const detail = (await (await page.request.get(`/api/business/${business._id}`)).json()) as RestBusiness;
    const own = detail.branches.find((b) => b._id === branch._id)!;
    expect(own.ratingCount).toBeGreaterThanOrEqual(1);
    const list = page.getByRole('region', { name: 'Filialer' });
    const summary = `${own.rate!.toFixed(1).replace('.', ',')} av 5`;
    await expect(list.getByRole('listitem').filter({ hasText: branch.location }).first()).toContainText(summary);
  });
}
