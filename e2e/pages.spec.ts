import path from 'node:path';
import Database from 'better-sqlite3';
import type { BrowserContext } from '@playwright/test';
import { E2E_DATA_DIR } from './env';
import { expect, expectAccessible, test } from './fixtures';

type ContactRow = { from_name: string; user_email: string; message: string; language: string; mailed_at: number | null };

/** Reads what the server stored, straight from its SQLite file (read-only, beside the running server). */
function storedContact(email: string): ContactRow | undefined {
  const db = new Database(path.join(E2E_DATA_DIR, 'recensera.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('select from_name, user_email, message, language, mailed_at from contact_messages where user_email = ?').get(email) as
      ContactRow | undefined;
  } finally {
    db.close();
  }
}

async function useEnglish(context: BrowserContext, baseURL: string | undefined) {
  await context.addCookies([{ name: 'lang', value: 'en', url: baseURL ?? 'http://127.0.0.1' }]);
}

test.describe('static pages', () => {
  test('about and terms render in Swedish, and in English with the lang cookie', async ({ page, context, baseURL }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1, name: 'Ärliga omdömen om vardagens företag' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Så fungerar det' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Drivs av lokalsamhället' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'sv');

    await page.goto('/terms-of-use');
    await expect(page.getByRole('heading', { level: 1, name: 'Användarvillkor' })).toBeVisible();
    await expect(page.getByRole('heading', { name: '6. Moderering' })).toBeVisible();
    await expect(page.getByRole('heading', { name: '10. Tillämplig lag' })).toBeVisible();
    await expect(page.getByText('Svensk lag gäller')).toBeVisible();

    await useEnglish(context, baseURL);
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1, name: 'Honest reviews of everyday businesses' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'How it works' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.getByRole('link', { name: 'Explore the businesses' }).click();
    await expect(page).toHaveURL(/\/business$/);

    await page.goto('/terms-of-use');
    await expect(page.getByRole('heading', { level: 1, name: 'Terms of use' })).toBeVisible();
    await expect(page.getByRole('heading', { name: '10. Governing law' })).toBeVisible();
    await expect(page.getByText('Swedish law applies')).toBeVisible();
  });

  test('the policy has ten numbered sections, a table of contents, the GDPR rights and its date', async ({ page, context, baseURL }) => {
    await page.goto('/policy');
    await expect(page.getByRole('heading', { level: 1, name: 'Integritetspolicy' })).toBeVisible();
    await expect(page.locator('time[datetime="2024-06-02"]')).toHaveText('2 juni 2024');

    const headings = page.locator('article section > h2');
    await expect(headings).toHaveCount(10);
    const texts = await headings.allInnerTexts();
    texts.forEach((text, i) => expect(text).toMatch(new RegExp(`^${i + 1}\\. \\S`)));

    const toc = page.getByRole('navigation', { name: 'Innehåll' });
    await expect(toc.getByRole('listitem')).toHaveCount(10);
    await expect(toc.locator('ol')).toBeVisible();

    const rights = page.locator('#rights');
    for (const text of [
      'Rätt till tillgång',
      'Ladda ner mina uppgifter',
      'Rätt till rättelse',
      'Rätt till radering',
      'Radera konto',
      'Rätt till begränsning',
      'Rätt till dataportabilitet',
      'Rätt att invända',
      'Integritetsskyddsmyndigheten (IMY)',
    ]) {
      await expect(rights.getByText(text, { exact: false }).first()).toBeVisible();
    }

    const cookies = page.locator('section#cookies');
    await expect(cookies.getByRole('heading', { name: '9. Cookies' })).toBeVisible();
    await expect(cookies.getByRole('rowheader', { name: 'session' })).toBeVisible();
    await expect(cookies.getByRole('rowheader', { name: 'lang' })).toBeVisible();
    await expect(cookies.getByRole('rowheader', { name: 'Inloggning med Google' })).toBeVisible();

    // A link in the table of contents jumps to its section.
    await toc.getByRole('link', { name: 'Dina rättigheter' }).click();
    await expect(page.getByRole('heading', { name: '8. Dina rättigheter' })).toBeInViewport();

    await useEnglish(context, baseURL);
    await page.goto('/policy');
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
    await expect(page.locator('time[datetime="2024-06-02"]')).toHaveText('2 June 2024');
    await expect(page.locator('article section > h2')).toHaveCount(10);
    await expect(page.getByText('Download my data').first()).toBeVisible();
  });

  test('/policy#cookies opens scrolled to the cookies section', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 700 });
    await page.goto('/policy#cookies');
    const heading = page.getByRole('heading', { name: '9. Cookies' });
    await expect(heading).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await expect(page.getByRole('heading', { level: 1, name: 'Integritetspolicy' })).not.toBeInViewport();
  });

  test('an unknown path shows the not-found page with a way home', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { level: 1, name: 'Sidan hittades inte' })).toBeVisible();
    await expect(page.getByText('Sidan du letar efter finns inte eller har flyttats.')).toBeVisible();
    await page.getByRole('link', { name: 'Till startsidan' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  // One test per page and width: axe is slow, and each stays well inside the test timeout.
  const pages = [
    ['/about', 'Ärliga omdömen om vardagens företag'],
    ['/terms-of-use', 'Användarvillkor'],
    ['/policy', 'Integritetspolicy'],
    ['/contact', 'Kontakta oss'],
    ['/no-such-page', 'Sidan hittades inte'],
  ] as const;
  for (const width of [375, 1280]) {
    for (const [url, heading] of pages) {
      test(`${url} fits and passes axe at ${width} px`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(url);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${url} is wider than the screen`).toBeLessThanOrEqual(0);
        await expectAccessible(page, `${url} at ${width} px`);
      });
    }
    test(`the contact form with its error messages passes axe at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/contact');
      await page.getByRole('button', { name: 'Skicka' }).click();
      await expect(page.getByText('Ange ditt namn')).toBeVisible();
      await expectAccessible(page, `/contact with errors at ${width} px`);
    });
  }
});

test.describe('contact form', () => {
  test('checks the fields, sends the message, stores it and goes home', async ({ page }) => {
    await page.goto('/contact');
    const name = page.getByLabel('Namn');
    const email = page.getByLabel('E-post');
    const message = page.getByLabel('Meddelande');
    const send = page.getByRole('button', { name: 'Skicka' });

    await send.click();
    await expect(page.getByText('Ange ditt namn')).toBeVisible();
    await expect(page.getByText('Ange din e-postadress')).toBeVisible();
    await expect(page.getByText('Skriv ett meddelande')).toBeVisible();
    await expect(name).toBeFocused();
    await expect(name).toHaveAttribute('aria-invalid', 'true');

    await name.fill('Karin Lindqvist');
    await email.fill('karin@');
    await send.click();
    await expect(page.getByText('Ogiltig e-postadress')).toBeVisible();
    await expect(page.getByText('Ange ditt namn')).toBeHidden();

    const address = `karin.${Date.now()}@example.se`;
    const text = 'Hej! Apoteket på Storgatan i Umeå har fått nya öppettider – kan ni uppdatera?';
    await email.fill(address);
    await message.fill(text);
    await send.click();

    await expect(page.getByText('Meddelandet skickades')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);

    expect(storedContact(address)).toEqual({ from_name: 'Karin Lindqvist', user_email: address, message: text, language: 'sv', mailed_at: null });
  });

  // Last: it uses up this IP address's contact allowance for the next minute.
  test('shows the reason when sending fails (too many messages)', async ({ page, context, baseURL }) => {
    await useEnglish(context, baseURL);
    let status = 0;
    for (let n = 0; n < 6 && status !== 429; n++) {
      const res = await page.request.post('/api/contact', {
        data: { from_name: 'Flood', user_email: `flood.${n}.${Date.now()}@example.se`, message: `Message ${n}` },
      });
      status = res.status();
      expect([201, 429]).toContain(status);
    }
    expect(status).toBe(429);

    await page.goto('/contact');
    await page.getByLabel('Name').fill('Erik');
    const address = `erik.${Date.now()}@example.se`;
    await page.getByLabel('Email').fill(address);
    await page.getByLabel('Message').fill('One more');
    await page.getByRole('button', { name: 'Send' }).click();

    await expect(page.getByText('Error occurred: Too many requests. Please wait a moment and try again.')).toBeVisible();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole('button', { name: 'Send' })).toBeEnabled();
    expect(storedContact(address)).toBeUndefined();
  });
});
