// The titles of pages with data, from the head catalogs the server uses for the first HTML
// (server/plugins/page-head.ts). Only the business and comment pages' chunks import this.
import { withSiteName, type SiteText } from '../../shared/schemas/site-settings';
import { COMMENT_TITLE_EXCERPT, excerpt } from '../../shared/schemas/text';
import type { Language } from '../i18n';
import { head as en } from '../../shared/i18n/en/head';
import { head as sv } from '../../shared/i18n/sv/head';

const heads = { sv, en };

/** "Åhléns – omdömen och betyg från 124 kunder | Recensera". */
export function businessPageTitle(lang: Language, site: SiteText, name: string, raters: number, count: string): string {
  return withSiteName(heads[lang].business.title(name, raters, count), site);
}

/** "Anna Svensson om Åhléns: ”Bra service …” | Recensera". */
export function commentPageTitle(lang: Language, site: SiteText, author: string, business: string, text: string): string {
  return withSiteName(heads[lang].comment.title(author, business, excerpt(text, COMMENT_TITLE_EXCERPT)), site);
}
