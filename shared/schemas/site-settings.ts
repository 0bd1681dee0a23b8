// Kept free of zod: the client's first chunk reads this.

/** The footer's links to the community's pages elsewhere (SOCIAL_*_URL); an unset one is absent. */
export type SocialLinks = Partial<Record<SocialNetwork, string>>;
export const SOCIAL_NETWORKS = ['facebook', 'instagram', 'linkedin'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/**
 * The <meta> the server adds to every page (server/plugins/site-settings.ts) when any link is
 * set: its content is the links as JSON. Pages prerendered at build time cannot know them.
 */
export const SOCIAL_META = 'recensera:social';

/** The links from the meta's content: only the known networks, only https addresses. */
export function parseSocialLinks(content: string | null | undefined): SocialLinks {
  if (!content) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== 'object') return {};
  const links: SocialLinks = {};
  for (const network of SOCIAL_NETWORKS) {
    const url = (parsed as Record<string, unknown>)[network];
    if (typeof url === 'string' && url.startsWith('https://')) links[network] = url;
  }
  return links;
}

/** Longest site name, tagline and welcome text an admin may set (characters). */
export const SITE_NAME_MAX = 40;
export const SITE_TAGLINE_MAX = 120;
export const SITE_WELCOME_MAX = 600;

type Texts = { sv: string; en: string };

/**
 * The operator's words for the site (issue 29 item 15): its name (titles, mails, share
 * previews, schema.org data), a tagline (the home page's title) and the home page's welcome
 * text, the last two in both languages.
 */
export type SiteText = { name: string; tagline: Texts; welcome: Texts };

/** The release's own words, used for whatever an admin has not set. */
export const DEFAULT_SITE_TEXT: SiteText = {
  name: 'Recensera',
  tagline: {
    sv: 'betyg och omdömen om butiker och tjänster i Sverige',
    en: 'ratings and reviews of stores and services in Sweden',
  },
  welcome: {
    sv: 'Här berättar vanliga kunder hur det är att handla i butiker och använda tjänster runt om i Sverige – från mataffären på hörnet till apoteket, järnhandeln och kaféet. Läs vad andra tycker, betygsätt dina egna besök och hjälp andra att välja rätt.',
    en: 'This is where everyday customers share what it is like to shop at stores and use services all over Sweden – from the corner grocery to the pharmacy, the hardware store and the café. Read what others think, rate your own visits and help others make the right choice.',
  },
};

/** Whether `site` is the release's own text throughout (nothing to tell the browser then). */
export const isDefaultSiteText = (site: SiteText) =>
  site.name === DEFAULT_SITE_TEXT.name &&
  site.tagline.sv === DEFAULT_SITE_TEXT.tagline.sv &&
  site.tagline.en === DEFAULT_SITE_TEXT.tagline.en &&
  site.welcome.sv === DEFAULT_SITE_TEXT.welcome.sv &&
  site.welcome.en === DEFAULT_SITE_TEXT.welcome.en;

/** A text of the release (a catalog's, a mail's) with the site's own name where it says "Recensera". */
export const inSiteName = (text: string, name: string) => (name === DEFAULT_SITE_TEXT.name ? text : text.replaceAll(DEFAULT_SITE_TEXT.name, name));

/** "<page> | <site>": a page's title in the tab and in search results. */
export const withSiteName = (title: string, site: Pick<SiteText, 'name'>) => `${title} | ${site.name}`;

/** The home page's title: "<site> – <tagline>". */
export const homeTitle = (site: SiteText, lang: 'sv' | 'en') => `${site.name} – ${site.tagline[lang]}`;

/**
 * The <meta> the server adds to every page when an admin has changed the site's words: its
 * content is the SiteText as JSON. Pages prerendered at build time carry the release's words;
 * the server renders them again with these (server/plugins/spa.ts).
 */
export const SITE_TEXT_META = 'recensera:site';

const textOf = (v: unknown, fallback: string, max: number) => (typeof v === 'string' && v.trim() && v.length <= max ? v : fallback);

/** The site's words from the meta's content; the release's own for anything missing or malformed. */
export function parseSiteText(content: string | null | undefined): SiteText {
  if (!content) return DEFAULT_SITE_TEXT;
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return DEFAULT_SITE_TEXT;
  }
  if (!parsed || typeof parsed !== 'object') return DEFAULT_SITE_TEXT;
  const p = parsed as { name?: unknown; tagline?: Partial<Record<string, unknown>>; welcome?: Partial<Record<string, unknown>> };
  const d = DEFAULT_SITE_TEXT;
  return {
    name: textOf(p.name, d.name, SITE_NAME_MAX),
    tagline: { sv: textOf(p.tagline?.sv, d.tagline.sv, SITE_TAGLINE_MAX), en: textOf(p.tagline?.en, d.tagline.en, SITE_TAGLINE_MAX) },
    welcome: { sv: textOf(p.welcome?.sv, d.welcome.sv, SITE_WELCOME_MAX), en: textOf(p.welcome?.en, d.welcome.en, SITE_WELCOME_MAX) },
  };
}
