import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { LOGIN_PROMPT_SHOWN_KEY } from '../client/components/layout/login-prompt-key';
import { E2E_DATA_DIR, E2E_OUTBOX } from './env';

/**
 * The demo accounts' password: made at random on the server's first start and kept in
 * DATA_DIR/demo-accounts.txt, as an operator would find it.
 */
export function demoPassword(): string {
  const line = readFileSync(path.join(E2E_DATA_DIR, 'demo-accounts.txt'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('admin@demo.recensera.se '));
  if (!line) throw new Error('no demo accounts file in the e2e DATA_DIR');
  return line.split(' ')[1];
}

/**
 * Fails on any serious or critical axe violation on the page as it is now. Besides axe's
 * defaults, `label-content-name-mismatch` (WCAG 2.5.3, label in name; experimental in axe, so
 * off unless asked for) is on: a control's accessible name must contain its visible text.
 */
export async function expectAccessible(page: Page, context = '') {
  // A panel rising into view (the login prompt, a toast) is half transparent for 200 ms, and axe
  // would measure its text's contrast mid-way: wait for every finite animation to end first.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} → ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')}`,
  );
  expect(summary, `axe violations ${context}`).toEqual([]);
}

/**
 * Waits for a mail to `to` in a server's outbox (DATA_DIR/outbox, written when SMTP_URL is unset)
 * and returns its raw text, quoted-printable soft breaks undone, so a test can follow its link.
 */
export async function readMail(to: string, { after = 0, timeoutMs = 10_000, outbox = E2E_OUTBOX } = {}): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    let files: string[];
    try {
      files = readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    } catch {
      files = [];
    }
    const found = files
      .map((f) => path.join(outbox, f))
      .filter((f) => statSync(f).mtimeMs >= after)
      .map((f) => ({
        f,
        text: readFileSync(f, 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/g, '='),
      }))
      .filter((m) => m.text.toLowerCase().includes(`to: ${to.toLowerCase()}`))
      .sort((a, b) => statSync(b.f).mtimeMs - statSync(a.f).mtimeMs);
    if (found.length) return found[0].text;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
}

/** A link under the site from a mail's text, e.g. linkIn(mail, '/users/confirm-email'). */
export function linkIn(mail: string, pathPrefix: string): string {
  const match = mail.match(new RegExp(`https?://[^\\s"<>]*${pathPrefix.replace(/[/?]/g, '\\$&')}[^\\s"<>]*`));
  if (!match) throw new Error(`no ${pathPrefix} link in mail`);
  return match[0];
}

let visitors = 0;

/**
 * Each test is a visitor of its own to the server's per-IP limits (10 logins a minute, docs/product.md
 * §3): the server trusts one proxy hop here (TRUST_PROXY=1 in playwright.config.ts), and every
 * test's requests say they come from its own address. Without it the whole suite was one IP,
 * and on a fast machine its eleventh login within a minute was refused and a journey found
 * itself on the login page. The addresses are from the documentation ranges (RFC 5737); they
 * are only a header, nothing is ever sent to them.
 */
function visitorAddress(): string {
  const n = visitors++;
  return `${['192.0.2', '198.51.100', '203.0.113'][Math.floor(n / 254) % 3]}.${(n % 254) + 1}`;
}

/**
 * The login prompt opens 10 s after load for visitors (docs/product.md §8) and would cover whatever a
 * journey is doing, so every context starts with it marked as shown. A test about the prompt
 * opts in with test.use({ loginPrompt: true }). Every test also sends its own visitor address.
 */
/** A 1×1 PNG, every map tile in the journeys. */
const TILE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * What every browser context of the journeys gets: the 10-second login invitation marked as
 * shown (unless `loginPrompt`: it is its own journey's subject, and would otherwise cover a page
 * halfway through a test), and map tiles answered locally.
 */
async function prepareContext(context: BrowserContext, loginPrompt = false) {
  if (!loginPrompt) await context.addInitScript((key) => localStorage.setItem(key, '1'), LOGIN_PROMPT_SHOWN_KEY);
  // Map tiles (MAP_TILE_URL's default, OpenStreetMap) are answered here: no request leaves the
  // test machine, and a page's console stays free of failed loads. A spec may route them itself.
  await context.route('https://tile.openstreetmap.org/**', (route) => route.fulfill({ status: 200, contentType: 'image/png', body: TILE }));
}

/** A second browser (own cookies) prepared like the `context` fixture's. */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await prepareContext(context);
  return context;
}

export const test = base.extend<{ loginPrompt: boolean }>({
  loginPrompt: [false, { option: true }],
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': visitorAddress() });
  },
  context: async ({ context, loginPrompt }, use) => {
    await prepareContext(context, loginPrompt);
    // Whatever the site's Content-Security-Policy refuses fails the journey, even when the page's
    // code swallows the error (zod's `new Function` probe did, and only DevTools' Issues panel
    // and Lighthouse's best-practices score showed it).
    const violations: string[] = [];
    await context.exposeBinding('__reportCspViolation', (_source, text: string) => void violations.push(text));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
        report?.(`${e.violatedDirective} refused ${e.blockedURI || 'inline'} in ${e.sourceFile}:${e.lineNumber} (${location.pathname})`);
      });
    });
    await use(context);
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  },
});
export { expect };
