import type { Page } from '@playwright/test';
import { E2E_INSTAGRAM_URL } from './env';
import { demoPassword, expect, expectAccessible, test } from './fixtures';

/** Signs in through the REST door; the browser context shares the session cookie it sets. */
async function signIn(page: Page, email: string) {
  const res = await page.request.post('/api/users/logIn', { data: { email, password: demoPassword() } });
  expect(res.ok()).toBe(true);
}

const mainNav = (page: Page) => page.getByRole('banner').getByRole('navigation');

test.describe('shell and home page', () => {
  test('home is Swedish by default, with the nav, carousel, trust, features and FAQ', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'sv');
    await expect(page.getByRole('heading', { level: 1, name: 'Välkommen till Recensera' })).toBeVisible();

    const nav = mainNav(page);
    await expect(nav.getByRole('link', { name: 'Hem' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Företag' })).toHaveAttribute('href', '/business');
    await expect(nav.getByRole('link', { name: 'Logga in' })).toHaveAttribute('href', '/login?next=%2F');
    await expect(nav.getByRole('button', { name: /byt språk till engelska/i })).toHaveText('EN');
    await expect(nav.getByRole('link', { name: /favoriter/i })).toHaveCount(0);

    const carousel = page.getByRole('region', { name: 'Butiker på Recensera' });
    const firstSlide = carousel.getByRole('group').first();
    await expect(firstSlide).toHaveAttribute('aria-label', /^1 av \d+$/);
    await expect(firstSlide.getByRole('link')).toHaveAttribute('href', /^\/business\/[\w-]+$/);
    await carousel.getByRole('button', { name: 'Pausa bildspelet' }).click();
    await expect(carousel.getByRole('button', { name: 'Starta bildspelet' })).toBeVisible();

    await expect(page.getByRole('heading', { level: 2, name: 'Varför lita på oss' })).toBeVisible();
    // The real number of businesses (29 in the demo data), not a fixed "20+".
    const claim = page.getByText('av Sveriges butiker och tjänster finns redan här – och fler tillkommer.');
    await expect(claim).toBeVisible();
    await expect(claim.locator('xpath=preceding-sibling::p')).toHaveText(/^\d+$/);
    await expect(page.getByText('20+')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 2, name: 'Det här kan du göra' })).toBeVisible();

    const question = page.getByRole('button', { name: 'Hur räknas betygen ut?' });
    await expect(question).toHaveAttribute('aria-expanded', 'false');
    await question.click();
    await expect(question).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByText('En butiks betyg är genomsnittet av de betyg som användarna har gett den.')).toBeVisible();

    const footer = page.getByRole('contentinfo');
    for (const [name, href] of [
      ['Om oss', '/about'],
      ['Kontakta oss', '/contact'],
      ['Alla butiker', '/business'],
      ['Registrera', '/registration'],
      // Logging in from the footer comes back here.
      ['Logga in', '/login?next=%2F'],
      ['Användarvillkor', '/terms-of-use'],
      ['Integritetspolicy', '/policy'],
      ['Cookiepolicy', '/policy#cookies'],
    ] as const) {
      await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    // Only the community pages the operator set (SOCIAL_INSTAGRAM_URL in playwright.config.ts) show.
    const instagram = footer.getByRole('link', { name: /instagram/i });
    await expect(instagram).toHaveAttribute('rel', /noopener/);
    await expect(instagram).toHaveAttribute('href', E2E_INSTAGRAM_URL);
    await expect(footer.getByRole('link', { name: /facebook|linkedin/i })).toHaveCount(0);
    await expectAccessible(page, 'home 1280 sv');
  });

  test('the carousel does not play by itself for visitors who prefer reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    const carousel = page.getByRole('region', { name: 'Butiker på Recensera' });
    await expect(carousel.getByRole('button', { name: 'Starta bildspelet' })).toBeVisible();
    const first = carousel.getByRole('group').first();
    const before = await first.boundingBox();
    await page.waitForTimeout(2600);
    expect(await first.boundingBox()).toEqual(before);
    await carousel.getByRole('button', { name: 'Nästa butiker' }).click();
    await expect.poll(async () => (await first.boundingBox())?.x).not.toBe(before?.x);
  });

  test('Tab goes through the carousel slides on screen only, then on to its controls', async ({ page }) => {
    // Still, so the first slide is the first on screen.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const [width, shown] of [
      [1280, 5],
      // Two to a phone's view, so long names fit (business-carousel.module.css).
      [375, 2],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      const carousel = page.getByRole('region', { name: 'Butiker på Recensera' });
      const slides = carousel.getByRole('group');
      await expect(slides.nth(20)).toBeAttached();
      // The others are inert until they slide into view.
      await expect(carousel.locator('[role="group"]:not([inert])')).toHaveCount(shown);
      await slides.first().getByRole('link').focus();
      let presses = 0;
      const previous = carousel.getByRole('button', { name: 'Föregående butiker' });
      while (presses < 40 && !(await previous.evaluate((el) => el === document.activeElement))) {
        await page.keyboard.press('Tab');
        presses += 1;
      }
      expect(presses, `Tabs from the first slide to the controls at ${width} px`).toBe(shown);
      // Moving on brings the next business into the tab order.
      await carousel.getByRole('button', { name: 'Nästa butiker' }).click();
      await expect(slides.nth(shown).locator('xpath=self::*[not(@inert)]')).toHaveCount(1);
      await expect(slides.first()).toHaveAttribute('inert', '');
    }
  });

  test('the language toggle switches to English and the choice survives a reload', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    await mainNav(page)
      .getByRole('button', { name: /byt språk till engelska/i })
      .click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Recensera' })).toBeVisible();
    await expect(mainNav(page).getByRole('button', { name: /switch language to swedish/i })).toHaveText('SV');

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(mainNav(page).getByRole('link', { name: 'Home' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Why Trust Us' })).toBeVisible();
    await expectAccessible(page, 'home 1280 en');
  });

  test('the store chooser filters by typing and opens the chosen business', async ({ page }) => {
    await page.goto('/');
    const chooser = page.getByRole('combobox', { name: 'Hitta en butik' }).or(page.getByLabel('Hitta en butik'));
    await chooser.first().click();
    await page.keyboard.type('ica');
    const option = page.getByRole('option', { name: /ICA Maxi/ });
    await expect(option).toBeVisible();
    await expect(page.getByRole('option', { name: /Biltema/ })).toHaveCount(0);
    await option.click();
    await expect(page).toHaveURL(/\/business\/[\w-]+$/);
  });

  test('home asks for the carousel’s few businesses; the chooser asks the server for at most 20 as the visitor types', async ({ page }) => {
    // issue 32, item 4: every business was 2 MB of JSON at ten thousand of them.
    const asked: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/trpc/')) asked.push(url);
    });
    const chooserAsks = () =>
      asked
        .filter((u) => u.pathname.includes('business.directoryPage'))
        .map((u) => JSON.parse(u.searchParams.get('input') ?? '{}') as Record<string, { search?: string; limit?: number }>);
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'Butiker på Recensera' }).getByRole('group').first()).toBeVisible();
    expect(asked.some((u) => u.pathname.includes('home.summary'))).toBe(true);
    expect(chooserAsks()).toEqual([]);
    await page.getByLabel('Hitta en butik').click();
    await page.keyboard.type('ica');
    await expect(page.getByRole('option', { name: /ICA Maxi/ })).toBeVisible();
    await expect(page.getByRole('option', { name: /Biltema/ })).toHaveCount(0);
    const inputs = chooserAsks().flatMap((batch) => Object.values(batch));
    expect(inputs.length).toBeGreaterThan(0);
    expect(inputs.every((input) => input.limit === 20)).toBe(true);
    expect(inputs.some((input) => input.search === 'ica')).toBe(true);
  });

  test('the chooser’s last option opens the directory with every store, or every match of the words', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Visa listan med butiker' }).click();
    const all = page.getByRole('option', { name: /^Visa alla \d+ butiker i katalogen$/ });
    await expect(all).toBeVisible();
    await expect(page.getByRole('listbox').getByRole('option')).toHaveCount(21);
    await expectAccessible(page, 'store chooser open');
    await all.click();
    await expect(page).toHaveURL(/\/business$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    await page.goto('/');
    await page.getByLabel('Hitta en butik').click();
    await page.keyboard.type('a');
    const matches = page.getByRole('option', { name: /^Visa alla \d+ träffar i katalogen$/ });
    await expect(matches).toBeVisible();
    await matches.click();
    await expect(page).toHaveURL(/\/business\?q=a$/);
    await expect(page.getByRole('searchbox', { name: 'Sök på namn, kategori, ort eller beskrivning' })).toHaveValue('a');
  });

  test('words that match no store are said beside the chooser’s list; Enter opens the directory with them', async ({ page }) => {
    // A status, not an option; Enter does this whenever no store is highlighted.
    await page.goto('/');
    await page.getByLabel('Hitta en butik').click();
    await page.keyboard.type('zzxq');
    await expect(page.getByRole('status').filter({ hasText: 'Ingen butik matchar det du skrev' })).toBeVisible();
    await expect(page.getByRole('option')).toHaveCount(0);
    await expectAccessible(page, 'store chooser without a match');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/business\?q=zzxq$/);
    await expect(page.getByText('Inget hittades för din sökning')).toBeVisible();
  });

  test('a chooser list that cannot be fetched says so under the field, which stays; the next try works', async ({ page }) => {
    await page.route(/\/trpc\/[^?]*business\.directoryPage/, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
    await page.goto('/');
    const field = page.getByLabel('Hitta en butik');
    await field.click();
    await page.keyboard.type('ica');
    await expect(page.getByRole('alert')).toHaveText('Butikerna kunde inte hämtas just nu.');
    await expect(field).toHaveValue('ica');
    await page.unroute(/\/trpc\/[^?]*business\.directoryPage/);
    // The visitor comes back to the field: it asks again, and the chooser takes over with the text.
    await field.blur();
    await field.click();
    await expect(page.getByRole('option', { name: /ICA Maxi/ })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('no letter is lost while the store chooser replaces its stand-in', async ({ page }) => {
    // The chooser's chunk is held back until a letter is in the stand-in. Right after the real
    // field has replaced it, a synchronous request holds the page (as a busy phone would be held)
    // while the next letters are pressed, so they wait in the queue and arrive the moment after the
    // swap: the moment CI once lost them in.
    let releaseChunk = () => {};
    const chunkHeld = new Promise<void>((resolve) => (releaseChunk = resolve));
    await page.route(/\/assets\/store-chooser-[\w-]+\.js$/, async (route) => {
      const response = await route.fetch();
      await chunkHeld;
      await route.fulfill({ response });
    });
    // Keys go straight through the DevTools protocol: Playwright's keyboard would first take a
    // trace snapshot, which has to wait until the hold is over.
    const cdp = await page.context().newCDPSession(page);
    const press = async (text: string) => {
      for (const key of text) {
        const code = { code: `Key${key.toUpperCase()}`, windowsVirtualKeyCode: key.toUpperCase().charCodeAt(0) };
        await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key, text: key, ...code });
        await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key, ...code });
      }
    };
    let pressDuringHold = () => {};
    const pressedDuringSwap = new Promise<void>((resolve) => (pressDuringHold = () => resolve(press('ca'))));
    await page.route('**/e2e-hold-after-swap', async (route) => {
      pressDuringHold();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await route.fulfill({ body: '' });
    });
    await page.addInitScript(() => {
      const observer = new MutationObserver(() => {
        if (document.getElementById('store-chooser-standin') || !document.querySelector('[data-scope="combobox"][data-part="input"]')) return;
        observer.disconnect();
        const hold = new XMLHttpRequest();
        hold.open('GET', '/e2e-hold-after-swap', false);
        hold.send();
      });
      observer.observe(document, { childList: true, subtree: true });
    });

    await page.goto('/');
    await page.getByLabel('Hitta en butik').click();
    await page.keyboard.type('i');
    releaseChunk();
    await pressedDuringSwap;

    const chooser = page.getByRole('combobox', { name: 'Hitta en butik' });
    await expect(chooser).toHaveValue('ica');
    await expect(chooser).toBeFocused();
    await expect(page.getByRole('option', { name: /ICA Maxi/ })).toBeVisible();
    await expect(page.getByRole('option', { name: /Biltema/ })).toHaveCount(0);
  });

  /** Holds the FAQ accordion's chunk back: `requested` once the page asks for it, sent on `release()`. */
  async function holdFaqChunk(page: Page) {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let markRequested = () => {};
    const requested = new Promise<void>((resolve) => (markRequested = resolve));
    await page.route(/\/assets\/faq-[\w-]+\.js$/, async (route) => {
      markRequested();
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    return { requested, release };
  }
  const faqQuestion = (page: Page) => page.getByRole('button', { name: 'Hur räknas betygen ut?' });
  const faqAnswer = (page: Page) => page.getByText('En butiks betyg är genomsnittet av de betyg som användarna har gett den.');
  const accordion = (page: Page) => page.locator('[data-scope="accordion"][data-part="root"]');

  test('a FAQ question clicked while its stand-in shows is open once the accordion has replaced it', async ({ page }) => {
    const chunk = await holdFaqChunk(page);
    await page.goto('/');
    await faqQuestion(page).click();
    await chunk.requested;
    // Still the stand-in: no accordion yet, and nothing to show.
    await expect(accordion(page)).toHaveCount(0);
    await expect(faqAnswer(page)).toHaveCount(0);
    chunk.release();

    await expect(accordion(page)).toHaveCount(1);
    await expect(faqQuestion(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(faqAnswer(page)).toBeVisible();
    await expect(faqQuestion(page)).toBeFocused();
  });

  for (const how of ['pointer', 'Space'] as const) {
    test(`a FAQ question pressed (${how}) on the stand-in and released on the accordion is open`, async ({ page }) => {
      // The press begins on the stand-in while the chunk is on its way and ends after the
      // accordion has replaced it, so its click reaches neither (the moment a loaded CI run lost
      // a Playwright click in): the press must still count.
      const chunk = await holdFaqChunk(page);
      await page.goto('/');
      const question = faqQuestion(page);
      await expect(question).toBeEnabled(); // the app has taken the served page over
      await question.scrollIntoViewIfNeeded();
      await chunk.requested;
      await expect(accordion(page)).toHaveCount(0);
      if (how === 'pointer') {
        const box = (await question.boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.down();
      } else {
        await question.focus();
        await page.keyboard.down(' ');
      }
      await expect(question).toBeFocused();
      chunk.release();
      await expect(accordion(page)).toHaveCount(1);
      if (how === 'pointer') await page.mouse.up();
      else await page.keyboard.up(' ');

      await expect(question).toHaveAttribute('aria-expanded', 'true');
      await expect(faqAnswer(page)).toBeVisible();
      await expect(question).toBeFocused();
    });
  }

  test('on a phone the menu drawer opens, closes with Escape and its close button, and navigates', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    await expect(mainNav(page).getByRole('link', { name: 'Företag' })).toBeHidden();
    await expectAccessible(page, 'home 375 sv');

    const menu = page.getByRole('button', { name: 'Meny' });
    await menu.click();
    const drawer = page.getByRole('dialog', { name: 'Meny' });
    await expect(drawer).toBeVisible();
    // The drawer slides in; measure once the animation has settled.
    await expect.poll(async () => (await drawer.boundingBox())?.x).toBe(0);
    expect((await drawer.boundingBox())?.width).toBe(240);
    for (const name of ['Logga in', 'Hem', 'Företag', 'Lägg till ny', 'Kontakt']) {
      await expect(drawer.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(drawer.getByRole('link', { name: /favoriter/i })).toHaveCount(0);
    await expect(drawer.getByRole('button', { name: /byt språk till engelska/i })).toBeVisible();
    await expectAccessible(page, 'drawer 375 sv');

    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(menu).toBeFocused();

    await menu.click();
    await drawer.getByRole('button', { name: 'Stäng menyn' }).click();
    await expect(drawer).toBeHidden();

    await menu.click();
    await drawer.getByRole('link', { name: 'Lägg till ny' }).click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(/\/business\/[\w-]+$/);
  });

  test('a signed-in admin sees the first name with the admin badge and the favourites link', async ({ page }) => {
    await signIn(page, 'admin@demo.recensera.se');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    const nav = mainNav(page);
    const user = nav.getByRole('link', { name: /din profil, admin ?, administratör/i });
    await expect(user).toHaveAttribute('href', '/user');
    await expect(user).toContainText('Admin');
    await expect(user).toContainText('A');
    const favorites = nav.getByRole('link', { name: /^Favoriter: \d+$/ });
    await expect(favorites).toHaveAttribute('href', /^\/favorites\/[\w-]+$/);
    await expect(nav.getByRole('link', { name: 'Logga in' })).toHaveCount(0);
    await expectAccessible(page, 'home signed in');

    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByRole('button', { name: 'Meny' }).click();
    const drawer = page.getByRole('dialog', { name: 'Meny' });
    await expect(drawer.getByRole('link', { name: /^Favoriter: \d+$/ })).toBeVisible();
    await expect(drawer.getByRole('link', { name: /din profil, admin/i })).toBeVisible();
  });

  test('an unknown route shows the not-found page at the same URL', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page).toHaveURL(/\/no-such-page$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sidan hittades inte' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Välkommen till Recensera' })).toHaveCount(0);
    await expectAccessible(page, 'not found');
  });

  test('scroll-to-top appears after 200 px on home and brings the page back up', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const toTop = page.getByRole('button', { name: 'Till toppen' });
    await page.evaluate(() => window.scrollTo(0, 150));
    await expect(toTop).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 600));
    await expect(toTop).toBeVisible();
    await toTop.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(toTop).toHaveCount(0);
  });

  test('a link with a hash scrolls to its target once the page has rendered it', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Cookiepolicy' }).click();
    await expect(page).toHaveURL(/\/policy#cookies$/);
    await expect(page.locator('[id="cookies"]')).toBeInViewport();

    await page.goto('/policy#cookies');
    await expect(page.locator('[id="cookies"]')).toBeInViewport();

    // A feed card leads to its comment on the business page, which renders after the business.
    await page.goto('/');
    const cardLink = page.locator('main a[href*="#comment-"]').first();
    const href = await cardLink.getAttribute('href');
    const commentId = href!.split('#')[1];
    await cardLink.click();
    await expect(page).toHaveURL(new RegExp(`/business/[\\w-]+#${commentId}$`));
    await expect(page.locator(`[id="${commentId}"]`)).toBeInViewport();
  });
});

test.describe('login prompt', () => {
  test.use({ loginPrompt: true });

  // The prompt's 10 s count from the app's start, and the served page is on screen before that:
  // fast-forwarding earlier would leave the app's timer to start afterwards. The FAQ stand-in is
  // enabled (the served page's is not) once the app has started.
  const appStarted = (page: Page) => expect(page.getByRole('button', { name: 'Hur räknas betygen ut?' })).toBeEnabled();

  test('invites a visitor after 10 s, once per browser; Escape closes it', async ({ page }) => {
    await page.clock.install();
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await appStarted(page);
    const prompt = page.getByRole('complementary', { name: 'Bli en del av Recensera' });
    await page.clock.fastForward(9_000);
    await expect(prompt).toHaveCount(0);
    await page.clock.fastForward(1_500);
    await expect(prompt).toBeVisible();
    await expect(prompt.getByRole('button', { name: 'Logga in' })).toBeVisible();
    await expect(prompt.getByRole('button', { name: 'Registrera' })).toBeVisible();
    await expectAccessible(page, 'login prompt');

    await page.keyboard.press('Escape');
    await expect(prompt).toBeHidden();

    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await appStarted(page);
    await page.clock.fastForward(12_000);
    await expect(prompt).toHaveCount(0);
  });

  test('its Log in button comes back to the page the visitor was on', async ({ page }) => {
    await page.clock.install();
    await page.goto('/business');
    await expect(page.getByRole('list', { name: 'Butiker' }).getByRole('listitem').first()).toBeVisible();
    await page.clock.fastForward(10_500);
    const prompt = page.getByRole('complementary', { name: 'Bli en del av Recensera' });
    await prompt.getByRole('button', { name: 'Logga in' }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Fbusiness$/);
    await page.getByLabel('E-post').fill('anna@demo.recensera.se');
    await page.getByLabel('Lösenord', { exact: true }).fill(demoPassword());
    await page.getByRole('button', { name: 'Logga in', exact: true }).click();
    await expect(page).toHaveURL(/\/business$/);
  });

  test('its Register button leads to registration; it never opens on the login page', async ({ page, browser, baseURL }) => {
    await page.clock.install();
    await page.goto('/');
    await appStarted(page);
    await page.clock.fastForward(10_500);
    const prompt = page.getByRole('complementary', { name: 'Bli en del av Recensera' });
    await prompt.getByRole('button', { name: 'Registrera' }).click();
    await expect(page).toHaveURL(/\/registration$/);
    await expect(prompt).toHaveCount(0);

    // A fresh context without the fixture's "already shown" mark.
    const other = await browser.newContext({ baseURL });
    const loginPage = await other.newPage();
    await loginPage.clock.install();
    await loginPage.goto('/login');
    await loginPage.clock.fastForward(12_000);
    await expect(loginPage.getByRole('complementary', { name: 'Bli en del av Recensera' })).toHaveCount(0);
    await other.close();
  });

  test('signed-in users never see it', async ({ page }) => {
    await signIn(page, 'anna@demo.recensera.se');
    await page.clock.install();
    await page.goto('/');
    await expect(page.getByRole('link', { name: /din profil, anna/i }).first()).toBeAttached();
    await page.clock.fastForward(12_000);
    await expect(page.getByRole('complementary', { name: 'Bli en del av Recensera' })).toHaveCount(0);
  });
});
