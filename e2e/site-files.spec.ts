import { expect, test } from './fixtures';

/** What crawlers, browsers and home screens fetch besides the pages (issue 20, files). */
test.describe('site files', () => {
  test('favicon, icons and manifest are real files, linked from every page', async ({ page, request }) => {
    const ico = await request.get('/favicon.ico');
    expect(ico.status()).toBe(200);
    expect(ico.headers()['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    // An ICO header: reserved 0, type 1 (icon).
    expect([...(await ico.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0]);

    const manifest = await request.get('/manifest.webmanifest');
    expect(manifest.status()).toBe(200);
    expect(manifest.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const { icons } = (await manifest.json()) as { icons: { src: string; type: string }[] };
    for (const icon of icons) {
      const res = await request.get(icon.src);
      expect(res.status(), icon.src).toBe(200);
      expect(res.headers()['content-type'], icon.src).toContain(icon.type);
    }

    await page.goto('/about');
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    await expect(page.locator('link[rel="icon"][href="/favicon.ico"]')).toHaveCount(1);
    await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', '/apple-touch-icon.png');
  });

  test('robots.txt and sitemap.xml answer as such, not with the app', async ({ request, baseURL }) => {
    const robots = await request.get('/robots.txt');
    expect(robots.headers()['content-type']).toBe('text/plain; charset=utf-8');
    expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
    const sitemap = await request.get('/sitemap.xml');
    expect(sitemap.headers()['content-type']).toBe('application/xml; charset=utf-8');
    expect(await sitemap.text()).toMatch(/<loc>[^<]+\/business\/[\w-]+<\/loc>/);
  });
});
