import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { siteSettings } from '../../../db/schema';
import type { Deps } from '../deps';
import { dataStamp } from '../../lib/data-stamp';
import { DEFAULT_SITE_TEXT, type SiteText } from '../../../shared/schemas/site-settings';
import type { SiteSettings, SiteSettingsInput } from '../../../shared/schemas/site-settings-input';
import { requireAdmin, type Actor } from '../actor';
import { recordModAction } from '../moderation/mod-log';

const ROW_ID = 1;

type Kept = { stamp: string; settings: SiteSettings };
const kept = new WeakMap<Db, Kept>();

/**
 * The site's words in use (issue 29 item 15): what an admin set, else the release's own. Read
 * by every page's head, every mail and the client's first HTML, so kept while the data stamp
 * holds; saving them is a write, which moves the stamp, so the next read sees the change.
 */
export function getSiteSettings(deps: Pick<Deps, 'db'>): SiteSettings {
  const stamp = dataStamp(deps.db);
  const hit = kept.get(deps.db);
  if (hit && hit.stamp === stamp) return hit.settings;
  const row = deps.db.select().from(siteSettings).where(eq(siteSettings.id, ROW_ID)).get();
  const d = DEFAULT_SITE_TEXT;
  const settings: SiteSettings = {
    name: row?.name ?? d.name,
    tagline: { sv: row?.taglineSv ?? d.tagline.sv, en: row?.taglineEn ?? d.tagline.en },
    welcome: { sv: row?.welcomeSv ?? d.welcome.sv, en: row?.welcomeEn ?? d.welcome.en },
    updatedAt: row ? new Date(row.updatedAt).toISOString() : null,
  };
  kept.set(deps.db, { stamp, settings });
  return settings;
}

/** The site's words without the save time: what pages and mails use. */
export function siteText(deps: Pick<Deps, 'db'>): SiteText {
  const { name, tagline, welcome } = getSiteSettings(deps);
  return { name, tagline, welcome };
}

/** An admin's value, or null where it is empty or the release's own (that default then follows later releases). */
const own = (value: string, fallback: string) => (value === '' || value === fallback ? null : value);

/**
 * Saves the site's words (admins only, counted against their edits), with an entry in the
 * moderation log in the same transaction. Every kept page, head and public reply is built
 * under the data stamp, which this write moves.
 */
export async function updateSiteSettings(deps: Deps, actor: Actor, input: SiteSettingsInput, now = Date.now()): Promise<SiteSettings> {
  const admin = requireAdmin(actor);
  await deps.limits.consume('edit', admin.id);
  const d = DEFAULT_SITE_TEXT;
  const values = {
    name: own(input.name, d.name),
    taglineSv: own(input.tagline.sv, d.tagline.sv),
    taglineEn: own(input.tagline.en, d.tagline.en),
    welcomeSv: own(input.welcome.sv, d.welcome.sv),
    welcomeEn: own(input.welcome.en, d.welcome.en),
    updatedAt: now,
    updatedBy: admin.id,
  };
  deps.db.transaction((tx) => {
    tx.insert(siteSettings)
      .values({ id: ROW_ID, ...values })
      .onConflictDoUpdate({ target: siteSettings.id, set: values })
      .run();
    recordModAction(tx, admin, { action: 'siteSettings', targetKind: 'site', targetId: 'site', excerpt: values.name ?? d.name });
  });
  return getSiteSettings(deps);
}
